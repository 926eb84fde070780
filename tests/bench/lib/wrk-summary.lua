-- Appended to every wrk run: after the human report, one machine-readable line with exact
-- figures (microseconds) and every error counter. Defines no request()/response(), so wrk keeps
-- its fast path (one pre-built request, no Lua per request).
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'WRK_JSON {"requests":%.0f,"durationUs":%.0f,"bytes":%.0f,' ..
    '"errors":{"connect":%.0f,"read":%.0f,"write":%.0f,"status":%.0f,"timeout":%.0f},' ..
    '"latencyUs":{"min":%.0f,"mean":%.1f,"max":%.0f,"p50":%.0f,"p75":%.0f,"p90":%.0f,"p99":%.0f,"p999":%.0f}}\n',
    summary.requests, summary.duration, summary.bytes,
    e.connect, e.read, e.write, e.status, e.timeout,
    latency.min, latency.mean, latency.max,
    latency:percentile(50), latency:percentile(75), latency:percentile(90), latency:percentile(99), latency:percentile(99.9)))
end
