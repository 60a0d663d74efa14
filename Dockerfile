# Multi-stage build of the petkit tools on the official Swift image.
FROM swift:6.3-bookworm AS build
RUN apt-get update \
    && apt-get install -y --no-install-recommends libcurl4-openssl-dev libssl-dev zlib1g-dev libsqlite3-dev libyaml-dev libxml2-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# The whole tree (see .dockerignore): the manifest names test and benchmark targets too.
COPY . .
RUN swift build -c release --product petmock \
    && swift build -c release --product petcontract \
    && swift build -c release --product petapi \
    && swift build -c release --product petvet \
    && mkdir -p /out \
    && bin="$(swift build -c release --show-bin-path)" \
    && for tool in petmock petcontract petapi petvet; do cp "$bin/$tool" /out/; done

FROM swift:6.3-bookworm-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends libcurl4 libssl3 zlib1g libsqlite3-0 libyaml-0-2 libxml2 ca-certificates curl \
    && rm -rf /var/lib/apt/lists/*
COPY --from=build /out/ /usr/local/bin/
COPY Stubs /stubs
COPY Contracts /contracts
WORKDIR /work
EXPOSE 8080
CMD ["petmock", "serve", "--host", "0.0.0.0", "--port", "8080", "--stubs", "/stubs"]
