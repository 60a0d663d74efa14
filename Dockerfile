# Multi-stage build of the petkit tools on the official Swift image.
FROM swift:6.3-bookworm AS build
RUN apt-get update \
    && apt-get install -y --no-install-recommends libcurl4-openssl-dev libssl-dev zlib1g-dev libsqlite3-dev libyaml-dev libxml2-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# The whole tree (see .dockerignore): the manifest names test and benchmark targets too.
COPY . .
# Each tool as `make serve` builds petmock (scripts/build-tool.sh): the Swift runtime and
# Foundation linked in, so the image below needs no Swift.
RUN mkdir -p /out \
    && for tool in petmock petcontract petapi petvet; do cp "$(scripts/build-tool.sh "$tool")" /out/; done \
    && for tool in petmock petcontract; do scripts/check-release-binary.sh "/out/$tool" "$(/out/$tool --version | awk '{print $2}')"; done

FROM debian:bookworm-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends libcurl4 libssl3 zlib1g libsqlite3-0 libyaml-0-2 libxml2 libstdc++6 ca-certificates curl \
    && rm -rf /var/lib/apt/lists/*
COPY --from=build /out/ /usr/local/bin/
COPY Stubs /stubs
COPY Contracts /contracts
WORKDIR /work
EXPOSE 8080
CMD ["petmock", "serve", "--host", "0.0.0.0", "--port", "8080", "--stubs", "/stubs"]
