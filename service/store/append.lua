-- Append events to a branch if, and only if, its head is the expected seq.
-- Atomic in Redis, so two writers can never both win: the loser gets 'conflict'.
--
-- KEYS[1] heads hash (branch id -> head seq)      KEYS[2] the branch's event stream
-- KEYS[3] idempotency key (declared even when unused, so that Redis Cluster routes the call)
-- ARGV[1] branch id   ARGV[2] expected seq   ARGV[3] '1' if an idempotency key is in use
-- ARGV[4] idempotency TTL (seconds)            ARGV[5..] one JSON event each, already numbered
local head = redis.call('HGET', KEYS[1], ARGV[1])
if not head then
  return {'nobranch', ''}
end
if ARGV[3] == '1' then
  local prior = redis.call('GET', KEYS[3])
  if prior then
    return {'duplicate', prior}
  end
end
local expected = tonumber(ARGV[2])
if tonumber(head) ~= expected then
  return {'conflict', head}
end
local count = #ARGV - 4
for i = 1, count do
  redis.call('XADD', KEYS[2], (expected + i) .. '-1', 'e', ARGV[4 + i])
end
local last = expected + count
redis.call('HSET', KEYS[1], ARGV[1], last)
local result = (expected + 1) .. ':' .. last
if ARGV[3] == '1' then
  redis.call('SET', KEYS[3], result, 'EX', tonumber(ARGV[4]))
end
return {'ok', result}
