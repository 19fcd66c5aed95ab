-- wrk script for bench/run: every request sends the next prepared body of this thread's pool
-- (one complete body per line - JSON, or a signed form where a provider sends one; `PATH<TAB>BODY`, with
-- `NAME: VALUE<TAB>` headers before the body, where the query or headers are signed per request - each with a
-- fresh, unused carrier token), so neither the sandbox (single-use tokens, unique msgids and nonces)
-- nor Passgate's replay cache ever sees a repeat.
--
-- wrk ... -s bench/lua/load.lua URL -- POOL_PREFIX METHOD PATH EXPECT [AUTHORIZATION [CONTENT_TYPE]]
--   POOL_PREFIX   bodies are read from POOL_PREFIX.<thread index>  ("-" for no body, e.g. GET /healthz)
--   EXPECT        a substring every good answer contains ("-" for any 2xx)
--   AUTHORIZATION the Authorization header of every request ("" for none): Passgate's Bearer key, or
--                 a provider's Basic credentials, which are the same on every request of an app
--   CONTENT_TYPE  of every body (default application/json; a form-encoding provider's requests carry their own)
-- A non-2xx status, or a 2xx without EXPECT, counts as an error; reusing a body because the pool
-- ran out is counted as `exhausted` (bench/run then reruns with a larger pool).
-- done() prints one line "BENCHJSON {...}" with the summary and latency percentiles (microseconds).

local threads = {}
local counter = 0

function setup(thread)
   thread:set("index", counter)
   counter = counter + 1
   table.insert(threads, thread)
end

function init(args)
   local prefix, method, path, expect, authorization, contentType = args[1], args[2], args[3], args[4], args[5], args[6]
   wrk.method = method
   wrk.path = path
   bodies = {}
   if prefix ~= "-" then
      for line in io.lines(prefix .. "." .. index) do
         bodies[#bodies + 1] = line
      end
   end
   headers = { ["Content-Type"] = (contentType and contentType ~= "") and contentType or "application/json" }
   if authorization and authorization ~= "" then headers["Authorization"] = authorization end
   expected = (expect ~= "-") and expect or nil
   nextBody = 1
   exhausted = 0
   badStatus = 0
   badBody = 0
   good = 0
   errorStatuses = {}
   firstError = ""
end

function request()
   if #bodies == 0 then
      return wrk.format(nil, nil, headers, nil)
   end
   if nextBody > #bodies then
      nextBody = 1
      exhausted = exhausted + 1
   end
   local body = bodies[nextBody]
   nextBody = nextBody + 1
   -- A line `PATH<TAB>[NAME: VALUE<TAB>...]BODY` carries its own path (a query signed per request)
   -- and headers (a signature in headers); a JSON or form body never starts with "/".
   if body:sub(1, 1) == "/" then
      local parts = {}
      for part in (body .. "\t"):gmatch("([^\t]*)\t") do parts[#parts + 1] = part end
      local own = {}
      for name, value in pairs(headers) do own[name] = value end
      for index = 2, #parts - 1 do
         local name, value = parts[index]:match("^([^:]+): (.*)$")
         if name then own[name] = value end
      end
      return wrk.format(nil, parts[1], own, parts[#parts])
   end
   return wrk.format(nil, nil, headers, body)
end

-- The first error's status and body (cut to 300 bytes) is kept, so a run with errors says why.
local function noteError(status, body)
   local key = tostring(status)
   errorStatuses[key] = (errorStatuses[key] or 0) + 1
   if firstError == "" then firstError = key .. " " .. string.sub(body or "", 1, 300) end
end

function response(status, headers, body)
   if status < 200 or status > 299 then
      badStatus = badStatus + 1
      noteError(status, body)
   elseif expected and not string.find(body, expected, 1, true) then
      badBody = badBody + 1
      noteError(status, body)
   else
      good = good + 1
   end
end

local function jsonString(text)
   local escaped = text:gsub('[%c"\\]', function(c)
      if c == '"' then return '\\"' elseif c == "\\" then return "\\\\" end
      return string.format("\\u%04x", string.byte(c))
   end)
   -- Bytes above ASCII as "?": a body cut at 300 bytes may end inside a UTF-8 sequence.
   return '"' .. escaped:gsub("[\128-\255]", "?") .. '"'
end

local function percentiles(latency)
   local points = {}
   local marks = { 0, 1, 5, 10, 20, 25, 30, 40, 50, 60, 70, 75, 80, 85, 90, 95, 97, 98, 99, 99.5, 99.9, 99.95, 99.99, 100 }
   for _, p in ipairs(marks) do
      local v = (p == 0) and latency.min or ((p == 100) and latency.max or latency:percentile(p))
      points[#points + 1] = string.format("[%g,%d]", p, v)
   end
   return "[" .. table.concat(points, ",") .. "]"
end

function done(summary, latency, requests)
   local bad, wrong, used, ok = 0, 0, 0, 0
   local statuses, first = {}, ""
   for _, thread in ipairs(threads) do
      bad = bad + (thread:get("badStatus") or 0)
      wrong = wrong + (thread:get("badBody") or 0)
      used = used + (thread:get("exhausted") or 0)
      ok = ok + (thread:get("good") or 0)
      for status, count in pairs(thread:get("errorStatuses") or {}) do
         statuses[status] = (statuses[status] or 0) + count
      end
      if first == "" then first = thread:get("firstError") or "" end
   end
   local counts = {}
   for status, count in pairs(statuses) do counts[#counts + 1] = string.format('"%s":%d', status, count) end
   local e = summary.errors
   io.write(string.format(
      'BENCHJSON {"requests":%d,"durationUs":%d,"bytes":%d,"good":%d,"badStatus":%d,"badBody":%d,"exhausted":%d,' ..
      '"connectErrors":%d,"readErrors":%d,"writeErrors":%d,"timeouts":%d,"statusErrors":%d,' ..
      '"p50":%d,"p99":%d,"p999":%d,"mean":%f,"stdev":%f,"max":%d,"percentiles":%s,' ..
      '"errorStatuses":{%s},"firstError":%s}\n',
      summary.requests, summary.duration, summary.bytes, ok, bad, wrong, used,
      e.connect, e.read, e.write, e.timeout, e.status,
      latency:percentile(50), latency:percentile(99), latency:percentile(99.9), latency.mean, latency.stdev, latency.max,
      percentiles(latency), table.concat(counts, ","), jsonString(first)))
end
