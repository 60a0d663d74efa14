# The 1,000-mappings stub root of the petmock benchmarks: ONE/ gets the pet list's mapping alone,
# MANY/ the same mapping last in priority among 1,000 (19 on its very path that do not match,
# 980 more under /api with every kind of matcher), in mapping files of 100.
# Usage: python3 Benchmarks/lib/many-mappings.py ONE MANY Stubs/mappings/pets.json
import json, sys
one, folder, pets_file = sys.argv[1], sys.argv[2], sys.argv[3]
document = json.load(open(pets_file))
candidates = document.get("mappings", [document])
target = next(m for m in candidates
              if m["request"].get("method") == "GET" and "/api/pets" in (m["request"].get("urlPath"), m["request"].get("url")))
json.dump(target, open(f"{one}/pets.json", "w"))
target = dict(target, priority=10)
mappings = [target]
# 19 mappings on the very same path that do not match (a header or query differs) and all
# come first: each is checked before the target on every request.
for n in range(19):
    request = {"method": "GET", "urlPath": "/api/pets"}
    if n % 2:
        request["headers"] = {"X-Tenant": {"equalTo": f"tenant-{n}"}}
    else:
        request["queryParameters"] = {"page": {"equalTo": str(n)}}
    mappings.append({"request": request, "response": {"status": 200, "body": f"tenant {n}"}, "priority": 1 + n % 5})
# 980 more elsewhere, under /api like the target, with every kind of matcher: exact paths,
# regular expressions, templates, body JSONPaths, cookies, Basic credentials, multi-valued
# query parameters (hasExactly) and `not`.
for n in range(980):
    kind = n % 7
    if kind == 0:
        request = {"method": "GET", "url": f"/api/items/{n}"}
    elif kind == 1:
        request = {"method": "GET", "urlPathPattern": f"/api/things{n}/[0-9]+"}
    elif kind == 2:
        request = {"method": "GET", "urlPathTemplate": f"/api/owners{n}/{{id}}/pets"}
    elif kind == 3:
        request = {"method": "POST", "urlPath": f"/api/orders/{n}", "bodyPatterns": [{"matchesJsonPath": "$.id"}]}
    elif kind == 4:
        request = {"method": "GET", "urlPath": f"/api/session{n}", "cookies": {"session": {"matches": "[a-f0-9]{8}"}}}
    elif kind == 5:
        request = {"method": "GET", "urlPath": f"/api/private{n}",
                   "basicAuthCredentials": {"username": f"user{n}", "password": "secret"}}
    else:
        request = {"method": "GET", "urlPath": f"/api/search{n}",
                   "queryParameters": {"tag": {"hasExactly": [{"equalTo": "a"}, {"not": {"equalTo": "b"}}]}}}
    mappings.append({"request": request, "response": {"status": 200, "jsonBody": {"n": n}}, "priority": 1 + n % 5})
for start in range(0, len(mappings), 100):
    with open(f"{folder}/mappings-{start // 100:02d}.json", "w") as out:
        json.dump({"mappings": mappings[start:start + 100]}, out)
