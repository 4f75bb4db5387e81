# The bot, or with `python -m bot webapp` the live seat's server of several bots (compose.yaml;
# docs/deploy.md). Two stages: the first installs the project and its dependencies into a
# virtual environment (where a compiler would go, should a dependency ever need one); the
# second is the slim base and that environment only, run by a user who is not root.

FROM python:3.11-slim AS build
ENV PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_CACHE_DIR=1
RUN python -m venv /opt/paohuzi
WORKDIR /src
COPY pyproject.toml README.md ./
COPY engine engine
# render/fonts: the bundled CJK font every picture is painted with
COPY render render
COPY bot bot
# the rule book's pages, which /rules sends (installed under share/paohuzi-bot/rules)
COPY docs/rules docs/rules
RUN /opt/paohuzi/bin/pip install .

FROM python:3.11-slim
RUN useradd --system --uid 10001 --user-group --home-dir /data --create-home paohuzi
COPY --from=build /opt/paohuzi /opt/paohuzi
ENV PATH=/opt/paohuzi/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    DB_PATH=/data/paohuzi.sqlite3 \
    METRICS_PORT=9100
USER paohuzi
WORKDIR /data
# the SQLite store (DB_PATH), when no DATABASE_URL names a PostgreSQL one
VOLUME /data
# /healthz on METRICS_PORT (python -m bot healthcheck: the image has no curl)
HEALTHCHECK --interval=30s --timeout=15s --start-period=60s --retries=3 \
    CMD ["python", "-m", "bot", "healthcheck"]
# the bot stores its running moves and exits within 10 s of SIGTERM (docker stop's)
STOPSIGNAL SIGTERM
CMD ["python", "-m", "bot"]
