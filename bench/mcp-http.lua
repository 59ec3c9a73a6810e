-- wrk: one MCP tools/call per request, stateless (2026-07-28), from MCP_BODY, MCP_TOOL and
-- MCP_HEADERS (extra "Name: value" lines, for a revision with its own headers).
wrk.method = "POST"
wrk.body = os.getenv("MCP_BODY")
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json, text/event-stream"
for line in string.gmatch(os.getenv("MCP_HEADERS") or "", "[^\n]+") do
  local name, value = string.match(line, "^([^:]+):%s*(.*)$")
  if name then wrk.headers[name] = value end
end

local failures = 0
response = function(status, headers, body)
  if status ~= 200 or not string.find(body, '"result"', 1, true) or string.find(body, '"isError":true', 1, true) then
    failures = failures + 1
  end
end

done = function(summary, latency, requests)
  io.write(string.format("failed-responses %d\n", failures))
end
