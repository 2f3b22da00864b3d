"""The container's health check: exit 0 if the bot's /healthz answers 200 (every shard of the
process connected and ready), else 1. Standard library only: the image has no curl."""

import os
import sys
import urllib.request

URL = f"http://127.0.0.1:{os.environ.get('METRICS_PORT', '9100')}/healthz"

try:
    with urllib.request.urlopen(URL, timeout=4) as answer:
        sys.exit(0 if answer.status == 200 else 1)
except OSError as error:  # refused, 503 (HTTPError), no answer in time
    print(f"{URL}: {error}", file=sys.stderr)
    sys.exit(1)
