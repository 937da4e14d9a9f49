-- Append events to a branch if, and only if, its head is the expected seq.
-- Atomic in Redis, so two writers can never both win: the loser gets CONFLICT.
--
-- KEYS[1] heads hash (branch id -> head seq)      KEYS[2] the branch's event stream
-- KEYS[3] idempotency key (declared even when unused, so that Redis Cluster routes the call)
-- KEYS[4] the branch's closed mark (set by a granted take-back request at a table: service/store/takebacks.py)
-- ARGV[1] branch id   ARGV[2] expected seq   ARGV[3] idempotency TTL in seconds, '0' for none
-- ARGV[4] the request's fingerprint (stored with the key, so that a reuse of the key for
--         another request can be told from a retry)
-- ARGV[5..] pairs: how many events an entry holds, and its encoded value (service/store/encoding.py).
--         The script numbers them: the entry holding seqs s..t gets the id 't-<count>', so that
--         XRANGE by seq stays right and the events' seqs follow the head it has just checked.
--
-- Replies: the new head (an integer) on success; the status 'DUPLICATE <first>:<last>:<fingerprint>'
-- for an append whose key was used before (checked first: a retry answers the same whatever the
-- head is now); errors 'NOBRANCH', 'CONFLICT <head>' and 'CLOSED <the line the table plays on at>'.
-- Small replies on purpose: this is the hot path of every write.
local ttl = tonumber(ARGV[3])
if ttl > 0 then
  local prior = redis.call('GET', KEYS[3])
  if prior then
    return {ok = 'DUPLICATE ' .. prior}
  end
end
local closed = redis.call('GET', KEYS[4])
if closed then
  return redis.error_reply('CLOSED ' .. closed)
end
local head = redis.call('HGET', KEYS[1], ARGV[1])
if not head then
  return redis.error_reply('NOBRANCH')
end
local expected = tonumber(ARGV[2])
if tonumber(head) ~= expected then
  return redis.error_reply('CONFLICT ' .. head)
end
local last = expected
for i = 5, #ARGV, 2 do
  local count = tonumber(ARGV[i])
  last = last + count
  redis.call('XADD', KEYS[2], last .. '-' .. count, 'e', ARGV[i + 1])
end
redis.call('HSET', KEYS[1], ARGV[1], last)
if ttl > 0 then
  redis.call('SET', KEYS[3], (expected + 1) .. ':' .. last .. ':' .. ARGV[4], 'EX', ttl)
end
return last
