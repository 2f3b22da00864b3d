# The Stud bot as a container: `docker compose up -d` runs it with PostgreSQL (compose.yaml,
# docs/operating.md, "In a container"). The bot reads /opt/stud/.env (mounted read-only) as it
# does anywhere else; the environment set here and in compose.yaml wins over it.

FROM python:3.11-slim-bookworm AS build
WORKDIR /src
COPY pyproject.toml README.md LICENSE ./
COPY bot bot
COPY cogs cogs
COPY engine engine
COPY render render
COPY strategy strategy
COPY words words
# The fonts the pictures draw with are package data (render/fonts): they come with the install.
RUN python -m venv /opt/stud/.venv \
    && /opt/stud/.venv/bin/pip install --no-cache-dir --disable-pip-version-check .

FROM python:3.11-slim-bookworm
RUN groupadd --system --gid 10001 stud \
    && useradd --system --uid 10001 --gid 10001 --home-dir /opt/stud --shell /usr/sbin/nologin stud \
    && install -d -o stud -g stud -m 700 /opt/stud/data
COPY --from=build /opt/stud/.venv /opt/stud/.venv
COPY deploy/healthcheck.py /opt/stud/healthcheck.py
# Inside the container the metrics port and the SQLite file's place are fixed; compose.yaml
# maps the port and gives the data folder a volume (with PostgreSQL, DATABASE_URL wins).
ENV PATH=/opt/stud/.venv/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    METRICS_PORT=9100 \
    DATABASE_PATH=/opt/stud/data/stud.db
WORKDIR /opt/stud
USER 10001:10001
VOLUME ["/opt/stud/data"]
EXPOSE 9100
# /healthz: 200 once every shard is connected and ready. A crash-loop pause or Discord's turns
# to connect can take minutes at start.
HEALTHCHECK --interval=30s --timeout=5s --start-period=5m --retries=3 \
    CMD ["python", "/opt/stud/healthcheck.py"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["stud-bot"]
