-- Where each player of a hand sat (RULES 1.4). The dealer seat moves on one seat clockwise each
-- hand, so a restart must know the table position of the last hand's dealer. The engine's state
-- knows only his index among the players dealt in, and his seat row is gone once he leaves or busts
-- (or moves to another tournament table), so each hand's seats keep their table position
-- (``position``, none for hands dealt before this).

ALTER TABLE hand_seats ADD COLUMN position BIGINT;
