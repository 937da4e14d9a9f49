-- Replace a branch's event stream by the same events in the newest encoding, atomically, losing no append.
-- (`ludolog migrate`, service/store/compaction.py.) Events never change, only how they are packed into entries,
-- so the caller has read the stream's events from seq ARGV[1] to ARGV[2] and encoded them again; the script
-- checks that the stream still holds exactly those seqs from its start, copies as they are any entries
-- appended since (the events after ARGV[2]: a writer that raced the migration), and swaps the stream.
-- Being one script, it runs between two appends, never during one: an append's seq check sees either stream.
--
-- KEYS[1] the branch's event stream
-- ARGV[1] first seq the caller read   ARGV[2] last seq it read   ARGV[3..] pairs: entry id, value (field 'e')
--
-- Replies: the number of entries copied from after ARGV[2] (0 or more) on success; the status 'GONE' when the
-- stream no longer exists (a deleted branch: nothing is written); the error 'CHANGED' when the stream's first
-- or read seqs are no longer as read (the caller reads again).
local function span(id)
  local last, count = string.match(id, '^(%d+)-(%d+)$')
  return tonumber(last) - tonumber(count) + 1, tonumber(last)
end

local first_read, last_read = tonumber(ARGV[1]), tonumber(ARGV[2])
local head = redis.call('XRANGE', KEYS[1], '-', '+', 'COUNT', 1)
if #head == 0 then
  return {ok = 'GONE'}
end
if span(head[1][1]) ~= first_read then
  return redis.error_reply('CHANGED')
end
local tail = redis.call('XRANGE', KEYS[1], tostring(last_read + 1), '+')
if #tail > 0 then
  if span(tail[1][1]) ~= last_read + 1 then
    return redis.error_reply('CHANGED')
  end
else
  local newest = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
  local _, newest_last = span(newest[1][1])
  if newest_last ~= last_read then
    return redis.error_reply('CHANGED')
  end
end
redis.call('DEL', KEYS[1])
for i = 3, #ARGV, 2 do
  redis.call('XADD', KEYS[1], ARGV[i], 'e', ARGV[i + 1])
end
for _, entry in ipairs(tail) do
  redis.call('XADD', KEYS[1], entry[1], unpack(entry[2]))
end
return #tail
