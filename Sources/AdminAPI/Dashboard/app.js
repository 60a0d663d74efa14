"use strict";
// petmock's dashboard, served at /__admin/ui. It builds every element with createElement and
// shows server data only through textContent: stub values and request data are not trusted.
const $ = (id) => document.getElementById(id);
let journalKind = "all";
let lastState = "";
let lastJournal = "";

function el(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  if (className) node.className = className;
  return node;
}
// A table of class `className` headed by `titles`; each of `rows` is [cells, row class].
function tableOf(className, titles, rows) {
  const table = el("table", null, className);
  const head = el("tr");
  for (const title of titles) head.append(el("th", title));
  const thead = el("thead");
  thead.append(head);
  const body = el("tbody");
  for (const [cells, rowClass] of rows) {
    const row = el("tr", null, rowClass);
    for (const cell of cells) row.append(el("td", cell));
    body.append(row);
  }
  table.append(thead, body);
  return table;
}
function button(text, action) {
  const node = el("button", text);
  node.type = "button";
  node.addEventListener("click", action);
  return node;
}
function showError(error) {
  if (error instanceof NeedsToken) return;
  $("error").textContent = error.message;
  setTimeout(() => { if ($("error").textContent === error.message) $("error").textContent = ""; }, 10000);
}
// A clickable row, for the keyboard too (Tab to it, Enter).
function clickable(row, action) {
  row.tabIndex = 0;
  row.addEventListener("click", action);
  row.addEventListener("keydown", (event) => { if (event.key === "Enter") action(); });
}
function status(text, className) {
  const node = $("status");
  node.textContent = text;
  node.className = className || "";
}

class NeedsToken extends Error {}

async function api(method, path, body) {
  const headers = {};
  const token = sessionStorage.getItem("petmockToken");
  if (token) headers["Authorization"] = "Bearer " + token;
  const init = { method, headers, credentials: "omit", cache: "no-store" };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = typeof body === "string" ? body : JSON.stringify(body);
  }
  const response = await fetch("/__admin" + path, init);
  if (response.status === 401) {
    $("token-form").hidden = false;
    throw new NeedsToken("the admin token is needed");
  }
  const text = await response.text();
  const json = text ? JSON.parse(text) : {};
  if (!response.ok) {
    const error = json.errors && json.errors[0] ? json.errors[0].title : response.statusText;
    throw new Error(method + " " + path + ": " + response.status + " " + error);
  }
  return json;
}

async function act(action) {
  try {
    await action();
    await refreshState();
  } catch (error) {
    showError(error);
  }
}

function urlOf(request) {
  return request.url || request.urlPath || request.urlPattern || request.urlPathPattern ||
    request.urlPathTemplate || "(any URL)";
}

async function refreshMappings() {
  const [list, sources, problems] = await Promise.all([
    api("GET", "/mappings"), api("GET", "/petmock/sources"), api("GET", "/petmock/problems"),
  ]);
  const fileOf = new Map(sources.mappings.map((entry) =>
    [entry.id, entry.file || (entry.source === "admin" ? "(added through the admin API)" : "(given in code)")]));
  const groups = new Map();
  for (const mapping of list.mappings) {
    const file = fileOf.get(mapping.id) || "(unknown)";
    if (!groups.has(file)) groups.set(file, []);
    groups.get(file).push(mapping);
  }
  const container = $("mapping-groups");
  container.replaceChildren();
  for (const file of [...groups.keys()].sort()) {
    // The path from mappings/ on; the whole path as the tooltip.
    const heading = el("h3", file.includes("/mappings/") ? file.slice(file.lastIndexOf("/mappings/") + 1) : file);
    heading.title = file;
    container.append(heading);
    const table = el("table", null, "mappings");
    const head = el("tr");
    for (const title of ["method", "URL", "status", "priority", "variant", "scenario", "state"]) {
      head.append(el("th", title));
    }
    const thead = el("thead");
    thead.append(head);
    table.append(thead);
    const body = el("tbody");
    for (const mapping of groups.get(file)) {
      const request = mapping.request || {};
      const response = mapping.response || {};
      const row = el("tr");
      row.dataset.mappingId = mapping.id;
      const state = mapping.requiredScenarioState
        ? mapping.requiredScenarioState + (mapping.newScenarioState ? " → " + mapping.newScenarioState : "")
        : (mapping.newScenarioState ? "→ " + mapping.newScenarioState : "");
      for (const cell of [request.method || "ANY", urlOf(request), response.status || 200,
        mapping.priority || "", (mapping.metadata && mapping.metadata.variant) || "",
        mapping.scenarioName || "", state]) {
        row.append(el("td", cell));
      }
      clickable(row, () => { $("mapping-json").textContent = JSON.stringify(mapping, null, 2); });
      body.append(row);
    }
    table.append(body);
    container.append(table);
  }
  const problemBox = $("problems");
  problemBox.replaceChildren();
  if (problems.problems.length > 0) {
    problemBox.append(el("h3", "Load problems"));
    const listNode = el("ul");
    for (const problem of problems.problems) {
      const item = el("li", null, problem.severity);
      item.append(el("b", problem.file || "(code)"), el("span", " " + problem.severity + " at "),
        el("code", problem.path), el("span", ": " + problem.message));
      listNode.append(item);
    }
    problemBox.append(listNode);
  }
  // Requests petmock refused (a variant no stub has, say): the first request of each, how many.
  if (problems.requestProblems.length > 0) {
    problemBox.append(el("h3", "Request problems"));
    const listNode = el("ul");
    for (const problem of problems.requestProblems) {
      const item = el("li", null, "error");
      item.dataset.problemKind = problem.kind;
      item.append(el("b", problem.request), el("span", " " + problem.kind +
        (problem.count > 1 ? " (" + problem.count + " requests)" : "") + ": " + problem.message));
      listNode.append(item);
    }
    if (problems.requestProblemsOmitted > 0) {
      listNode.append(el("li", problems.requestProblemsOmitted + " more requests with problems not listed", "muted"));
    }
    problemBox.append(listNode);
  }
}

// Recording: start with a target (written into the stub folder), stop, what was written.
async function startRecording() {
  await api("POST", "/recordings/start", { targetBaseUrl: $("recording-target").value, persist: true });
  $("recording-written").replaceChildren();
}
async function stopRecording() {
  const result = await api("POST", "/recordings/stop");
  const list = $("recording-written");
  list.replaceChildren();
  const mappings = result.mappings || [];
  if (mappings.length === 0) list.append(el("li", "nothing was recorded", "muted"));
  for (const mapping of mappings) {
    const request = mapping.request || {};
    const status = mapping.response && mapping.response.status;
    list.append(el("li", (request.method || "ANY") + " " + (request.url || request.urlPath || "") + " \u2192 " + status));
  }
}

// The recorder's status as WireMock names it (the API's), in words for people.
const recordingWords = { NeverStarted: "not recording", Recording: "recording", Stopped: "stopped" };

async function refreshState() {
  const [variants, scenarios, recording] = await Promise.all([
    api("GET", "/petmock/variants"), api("GET", "/scenarios"), api("GET", "/recordings/status")]);
  $("recording-status").textContent = recordingWords[recording.status] || recording.status;
  // Rebuilt only when something changed, so a button is not replaced under the pointer.
  const rendered = JSON.stringify([variants, scenarios]);
  if (rendered === lastState) return;
  lastState = rendered;
  $("active-variant").textContent = variants.active || "none";
  const files = $("file-variants");
  files.replaceChildren();
  for (const variant of variants.fileVariants) {
    const node = button(variant.name, () => act(() => api("PUT", "/petmock/variant", { variant: variant.name })));
    node.dataset.variant = variant.name;
    node.title = (variant.description || "") + " " + variant.endpoints.join(", ");
    if (variant.name === variants.active) node.className = "on";
    files.append(node);
  }
  const forms = $("variant-forms");
  forms.replaceChildren();
  const generated = $("generated-variants");
  generated.replaceChildren();
  for (const form of variants.generated) {
    forms.append(Object.assign(el("option"), { value: form.form }));
    const line = el("div", null, "muted");
    line.append(el("code", form.form), el("span", " " + form.description));
    generated.append(line);
  }
  for (const field of variants.jsonFields) {
    for (const form of ["missing:", "null:", "type:", "rename:"]) {
      forms.append(Object.assign(el("option"), { value: form + field + (form === "rename:" ? "=" : "") }));
    }
  }
  const list = $("scenario-list");
  list.replaceChildren();
  if (scenarios.scenarios.length === 0) list.append(el("p", "No scenarios.", "muted"));
  for (const scenario of scenarios.scenarios) {
    const line = el("div");
    line.dataset.scenario = scenario.name;
    line.append(el("b", scenario.name), el("span", ": "));
    for (const state of scenario.possibleStates) {
      const node = button(state, () => act(() =>
        api("PUT", "/scenarios/" + encodeURIComponent(scenario.name) + "/state", { state })));
      node.dataset.state = state;
      if (state === scenario.state) node.className = "on";
      line.append(node);
    }
    line.append(button("reset", () => act(() =>
      api("PUT", "/scenarios/" + encodeURIComponent(scenario.name) + "/state", ""))));
    list.append(line);
  }
}

async function refreshJournal() {
  const query = journalKind === "unmatched" ? "&unmatched=true" : "";
  const journal = await api("GET", "/requests?limit=100" + query);
  const filter = $("journal-filter").value.toLowerCase();
  const rendered = JSON.stringify([journalKind, filter, journal.requests.map((event) => event.id)]);
  status("connected", "ok");
  if (rendered === lastJournal) return;
  lastJournal = rendered;
  const rows = $("journal-rows");
  rows.replaceChildren();
  for (const event of journal.requests) {
    if (journalKind === "matched" && !event.wasMatched) continue;
    const request = event.request;
    const stub = event.petmockStubLabel || "";
    const cells = [new Date(request.loggedDate).toLocaleTimeString(), request.method, request.url,
      event.response.status, stub, request.petmockVariant || "", violationCount(event)];
    if (filter && !cells.join(" ").toLowerCase().includes(filter)) continue;
    const row = el("tr", null, journalRowClass(event));
    row.dataset.requestId = event.id;
    for (const cell of cells) row.append(el("td", cell));
    clickable(row, () => showRequest(event).catch(showError));
    rows.append(row);
  }
}

// The stubs' webhook calls, newest first: shown once there is one.
let lastWebhooks = "";
async function refreshWebhooks() {
  const listing = await api("GET", "/petmock/webhooks");
  const rendered = JSON.stringify([listing.webhooks.map((call) => call.sequence), listing.dropped]);
  if (rendered === lastWebhooks) return;
  lastWebhooks = rendered;
  $("webhooks").hidden = listing.webhooks.length === 0;
  const rows = $("webhook-rows");
  rows.replaceChildren();
  for (const call of [...listing.webhooks].reverse()) {
    const row = el("tr", null, call.outcome === "answered" ? "" : "unmatched");
    row.dataset.webhookOutcome = call.outcome;
    for (const cell of [new Date(call.date).toLocaleTimeString(), call.method, call.url, call.outcome,
      call.status !== undefined ? call.status : (call.error || ""), call.durationMs, call.request,
      call.callback ? "callback " + call.callback.name + " of " + call.callback.operation
        : call.stubName || call.stubId]) {
      row.append(el("td", cell));
    }
    rows.append(row);
  }
  $("webhooks-dropped").textContent = listing.dropped > 0 ? listing.dropped + " older calls not kept" : "";
}

// The state extension's contexts (recordState): shown once there is one.
let lastContexts = "";
async function refreshContexts() {
  const listing = await api("GET", "/petmock/contexts");
  const rendered = JSON.stringify(listing.contexts);
  if (rendered === lastContexts) return;
  lastContexts = rendered;
  $("contexts").hidden = listing.contexts.length === 0;
  const rows = $("context-rows");
  rows.replaceChildren();
  for (const context of listing.contexts) {
    const row = el("tr");
    for (const cell of [context.context, JSON.stringify(context.properties), context.listSize, context.updateCount]) {
      row.append(el("td", cell));
    }
    rows.append(row);
  }
}

async function showRequest(event) {
  const detail = $("request-detail");
  detail.replaceChildren();
  const request = event.request;
  detail.append(el("h3", request.method + " " + (request.absoluteUrl || request.url)));
  if (event.petmockDocument) {
    showDocumentAnswer(event, detail);
    return;
  }
  if (event.petmockProblem) {
    detail.append(el("p", "Refused (" + event.petmockProblem.kind + "): " + event.petmockProblem.message, "error"));
    return;
  }
  if (event.petmockPreflight) {
    detail.append(el("p", "A browser's CORS preflight, answered by petmock (--cors) with " + event.response.status +
      "."));
    return;
  }
  if (event.wasMatched) {
    detail.append(el("pre", JSON.stringify(event, null, 2)));
    return;
  }
  const misses = await api("POST", "/near-misses/request", {
    method: request.method, url: request.url, headers: request.headers, body: request.body,
  });
  if (misses.nearMisses.length === 0) detail.append(el("p", "No stub comes close.", "muted"));
  for (const miss of misses.nearMisses) {
    const mapping = miss.stubMapping;
    detail.append(el("h3", "Near miss: " + (miss.label || mapping.name || mapping.id) + " (distance " +
      miss.matchResult.distance + ")"));
    detail.append(tableOf("near-miss", ["", "criterion", "expected", "actual"], miss.criteria.map((criterion) => [
      [criterion.matched ? "✓" : "✗", criterion.criterion, criterion.expected, criterion.actual],
      criterion.matched ? "ok" : "error",
    ])));
  }
}

async function refreshAll() {
  try {
    await Promise.all([
      refreshMappings(), refreshState(), refreshJournal(), refreshOperations(), refreshWebhooks(), refreshContexts(),
    ]);
  } catch (error) {
    showError(error);
  }
}

function poll() {
  Promise.all([refreshJournal(), refreshWebhooks(), refreshContexts()]).catch((error) => {
    if (!(error instanceof NeedsToken)) status("disconnected: " + error.message, "error");
  }).finally(() => setTimeout(poll, 1000));
}

document.addEventListener("DOMContentLoaded", () => {
  $("token-form").addEventListener("submit", (event) => {
    event.preventDefault();
    sessionStorage.setItem("petmockToken", $("token").value);
    $("token").value = "";
    $("token-form").hidden = true;
    refreshAll();
  });
  $("variant-reset").addEventListener("click", () => act(() => api("DELETE", "/petmock/variant")));
  $("variant-apply").addEventListener("click", () =>
    act(() => api("PUT", "/petmock/variant", { variant: $("variant-input").value })));
  $("scenarios-reset").addEventListener("click", () => act(() => api("POST", "/scenarios/reset")));
  $("recording-start").addEventListener("click", () => act(startRecording));
  $("recording-stop").addEventListener("click", () => act(stopRecording));
  $("journal-clear").addEventListener("click", () => act(() => api("DELETE", "/requests")));
  $("journal-kind").addEventListener("change", (event) => { journalKind = event.target.value; refreshJournal(); });
  $("journal-filter").addEventListener("input", () => refreshJournal());
  $("mappings-refresh").addEventListener("click", () => refreshMappings().catch(showError));
  refreshAll();
  setInterval(() => refreshState().catch(showError), 3000);
  setTimeout(poll, 1000);
});
// The part for an OpenAPI document: its operations beside the mappings, and the violations
// of the requests it answered.
// The violations of a request the document answered or checked: the request's ("2"), its
// answer's ("answer 1"), both ("2, answer 1"); "" for any other.
function violationCount(event) {
  const document = event.petmockDocument;
  if (!document) return "";
  const answer = responseViolations(event).length;
  const parts = document.violations.length > 0 ? [String(document.violations.length)] : [];
  if (answer > 0) parts.push("answer " + answer);
  return parts.join(", ");
}

// How the answer breaks its response schema (sent with Petmock-Violations, or a problem with --errors).
function responseViolations(event) {
  const document = event.petmockDocument;
  return (document && document.responseViolations) || [];
}

// Marked like an unmatched request: no stub, no document operation and no CORS preflight
// answered, or the document refused the request; as a warning: an answer that breaks its schema.
function journalRowClass(event) {
  const document = event.petmockDocument;
  if (document) {
    if (document.violations.length > 0) return "unmatched";
    return responseViolations(event).length > 0 ? "warning" : "";
  }
  return event.wasMatched || event.petmockPreflight ? "" : "unmatched";
}

async function refreshOperations() {
  const listing = await api("GET", "/petmock/operations");
  const section = $("operations");
  section.hidden = listing.operations.length === 0;
  const rows = $("operation-rows");
  rows.replaceChildren();
  for (const operation of listing.operations) {
    const row = el("tr");
    row.dataset.operation = operation.name;
    const name = operation.operationId || operation.name;
    const stateful = operation.stateful ? operation.stateful.role + " " + operation.stateful.collection : "";
    for (const cell of [operation.method, operation.path, name, operation.statuses.join(", "), stateful]) {
      row.append(el("td", cell));
    }
    if (operation.summary) row.title = operation.summary;
    rows.append(row);
  }
}

function showDocumentAnswer(event, detail) {
  const document = event.petmockDocument;
  detail.append(el("p", "Answered by the document's operation " + (document.operation || "(none)") + " with " +
    event.response.status + "."));
  const rows = (violations, rowClass) => violations.map(
    (violation) => [[violation.location, violation.expected, violation.found, violation.message], rowClass]);
  const titles = ["where", "expected", "found", "message"];
  if (document.violations.length > 0) {
    detail.append(el("h3", "The request breaks the operation"));
    detail.append(tableOf("violations", titles, rows(document.violations, "error")));
  }
  const answer = responseViolations(event);
  if (answer.length > 0) {
    detail.append(el("h3", "The answer breaks its response schema"));
    detail.append(tableOf("response-violations", titles, rows(answer, "warning")));
  }
}
