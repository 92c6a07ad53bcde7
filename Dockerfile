# kradan serve in a container (docs/deploy.md).
#
#   docker build -t kradan:0.1.0 .
#   docker run -d --name kradan --init -p 127.0.0.1:8080:8080 -v kradan-data:/data \
#       -e KRADAN_ALLOWED_HOSTS=play.example.org kradan:0.1.0
#
# deploy/compose.sqlite.yml and deploy/compose.postgresql.yml run it with their settings.
# The base image is pinned by its tag: Python 3.11 on Debian 12. For a build that never changes
# under you, pin its digest as well (python:3.11-slim-bookworm@sha256:...).

# --- build: a virtual environment in /opt/kradan ----------------------------------------------
FROM python:3.11-slim-bookworm AS build

ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PATH=/opt/kradan/bin:$PATH
RUN python -m venv /opt/kradan
WORKDIR /src

# The dependencies first, read from pyproject.toml alone (kradan's own and the web extra's): a
# change to kradan's sources rebuilds from the next step and reuses this layer.
COPY pyproject.toml ./
RUN python -c "import tomllib; p = tomllib.load(open('pyproject.toml', 'rb'))['project']; print('\n'.join(p['dependencies'] + p['optional-dependencies']['web']))" > /tmp/requirements.txt \
    && pip install -r /tmp/requirements.txt

# Then kradan itself; its dependencies are installed already.
COPY README.md LICENSE ./
COPY src ./src
RUN pip install '.[web]'

# --- the image: the environment, a user of its own, the data volume ---------------------------
FROM python:3.11-slim-bookworm

# /data holds the SQLite database and numba's compiled kernels (compiled on the first start,
# about 15 s in the background; kept across restarts and dropped when kradan's sources change).
# numba needs a cache folder it can write: the environment's own belongs to root.
ENV PATH=/opt/kradan/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    NUMBA_CACHE_DIR=/data/numba-cache

RUN groupadd --system --gid 10001 kradan \
    && useradd --system --uid 10001 --gid kradan --home-dir /data --no-create-home \
        --shell /usr/sbin/nologin kradan \
    && mkdir /data \
    && chown kradan:kradan /data

COPY --from=build /opt/kradan /opt/kradan
COPY deploy/entrypoint.sh /usr/local/lib/kradan/entrypoint.sh
COPY deploy/healthcheck.py /usr/local/lib/kradan/healthcheck.py

USER kradan
WORKDIR /data
VOLUME ["/data"]
EXPOSE 8080

# Python's urllib rather than curl, which the slim image lacks; start-period covers the first
# start's migrations (the kernels compile in the background while the server answers).
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python", "/usr/local/lib/kradan/healthcheck.py"]

# The entry point adds --db, --allowed-hosts and --engines from KRADAN_DB, KRADAN_ALLOWED_HOSTS
# and KRADAN_ENGINES when they are set (deploy/entrypoint.sh); other commands run as given.
ENTRYPOINT ["/bin/sh", "/usr/local/lib/kradan/entrypoint.sh"]
CMD ["kradan", "serve", "--host", "0.0.0.0", "--port", "8080", "--db", "/data/games.db"]
