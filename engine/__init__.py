"""Pure rules of fixed-limit Seven Card Stud: no I/O, no Discord, no drawing."""
