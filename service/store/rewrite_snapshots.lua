-- Store snapshots again in the newest encoding, each only if it is still the one that was read
-- (`ludolog migrate`): a fold job that replaced one meanwhile keeps its own.
--
-- KEYS[1] the branch's snapshot hash   ARGV triples: seq, the stored value read, the value to store instead
-- Reply: how many were replaced.
local replaced = 0
for i = 1, #ARGV, 3 do
  if redis.call('HGET', KEYS[1], ARGV[i]) == ARGV[i + 1] then
    redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 2])
    replaced = replaced + 1
  end
end
return replaced
