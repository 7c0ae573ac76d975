# Datapad production image: web (gunicorn), worker and beat all run from it.
# syntax=docker/dockerfile:1

FROM python:3.13-slim AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /build
# The runtime lock pins every package, transitive ones too, with its hashes (`make lock`).
COPY requirements.lock .
RUN python -m venv /venv && /venv/bin/pip install --require-hashes -r requirements.lock

FROM python:3.13-slim AS runtime
ENV PATH="/venv/bin:$PATH" \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    DJANGO_ENV=production \
    MEDIA_ROOT=/app/media \
    FORWARDED_ALLOW_IPS="127.0.0.1,::1"
RUN groupadd --system --gid 10001 datapad \
    && useradd --system --uid 10001 --gid datapad --home-dir /app datapad
WORKDIR /app
COPY --from=build /venv /venv
COPY --chown=datapad:datapad . .
# collectstatic needs settings but no secrets of its own: a throwaway key for this one step.
# Uploaded portraits go to /app/media (a volume in compose), owned by the runtime user.
RUN SECRET_KEY=build-only-collectstatic-key-not-used-at-runtime-0123456789 \
    ALLOWED_HOSTS=localhost python manage.py collectstatic --noinput \
    && install -d -o datapad -g datapad /app/media
USER 10001:10001
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --retries=3 \
  CMD ["python", "-c", "import urllib.request,sys; sys.exit(0 if urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=4).status == 200 else 1)"]
# X-Forwarded-Proto is believed only from FORWARDED_ALLOW_IPS (the TLS proxy; loopback unless
# compose says otherwise), never from "*": Django takes the scheme from gunicorn.
CMD ["gunicorn", "config.wsgi:application", "--bind", "0.0.0.0:8000", "--workers", "3", "--access-logfile", "-"]
