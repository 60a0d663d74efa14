#!/usr/bin/env bash
# Checks docker-compose.yml without a Docker engine: `docker-compose config -q` must accept it,
# and the normalised configuration must declare the services, ports, volumes, healthchecks and
# start order docs/development.md promises.
set -euo pipefail
cd "$(dirname "$0")/../.."

command -v docker-compose >/dev/null || { echo "docker-compose is not installed (make test-deps installs it)" >&2; exit 1; }
docker-compose config -q
# Debian's docker-compose runs on the system Python, which has PyYAML with it.
docker-compose config | /usr/bin/python3 -c '
import sys, yaml
config = yaml.safe_load(sys.stdin)
services = config["services"]
problems = []
def check(condition, message):
    if not condition:
        problems.append(message)

check(set(services) == {"petapi", "petmock", "contract"}, f"services: expected petapi, petmock, contract; found {sorted(services)}")
api = services.get("petapi", {})
check(api.get("command", [])[:2] == ["petapi", "serve"], "petapi: command should run petapi serve")
check("--db" in api.get("command", []), "petapi: command should name its --db")
check(any(str(p.get("target")) == "8080" for p in api.get("ports", [])), "petapi: port 8080 should be published")
check(any(v.endswith(":/data:rw") or v.endswith(":/data") for v in api.get("volumes", [])), "petapi: needs a volume at /data for its database")
check("/health" in " ".join(api.get("healthcheck", {}).get("test", [])), "petapi: healthcheck should call /health")
mock = services.get("petmock", {})
check(mock.get("command", [])[:2] == ["petmock", "serve"], "petmock: command should run petmock serve")
check(any(str(p.get("target")) == "8080" for p in mock.get("ports", [])), "petmock: port 8080 should be published")
check(any("/stubs" in v for v in mock.get("volumes", [])), "petmock: Stubs/ should be mounted at /stubs")
health = " ".join(mock.get("healthcheck", {}).get("test", []))
check("/__admin/health" in health, "petmock: healthcheck should call /__admin/health")
check("Bearer $PETMOCK_ADMIN_TOKEN" in health.replace("$$", "$"), "petmock: healthcheck should send the admin token when one is set")
check("PETMOCK_ADMIN_TOKEN" in (mock.get("environment") or {}), "petmock: should pass PETMOCK_ADMIN_TOKEN to the container")
contract = services.get("contract", {})
command = contract.get("command", [])
check(command[:3] == ["petcontract", "verify", "--live"], "contract: should run petcontract verify --live")
check("http://petapi:8080/api" in command, "contract: should verify http://petapi:8080/api")
check(contract.get("depends_on", {}).get("petapi", {}).get("condition") == "service_healthy", "contract: should wait for a healthy petapi")
check(contract.get("restart") == "no", "contract: is one-shot (restart: no)")
if problems:
    print("docker-compose.yml: " + "\n  ".join(problems), file=sys.stderr)
    sys.exit(1)
print("docker-compose.yml: 3 services, ports, volumes, healthchecks and start order as documented")
'
