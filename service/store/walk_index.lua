-- Walk one listing index in creation order and keep the games that pass the other filters and are visible.
--
-- KEYS[1]            the index walked (the smallest one the filters name)
-- KEYS[2..1+nand]    indexes a game must also be in (the other filters)
-- KEYS[2+nand..]     indexes of which a game must be in at least one (visibility: public, the caller's own)
-- ARGV: nand, 'desc' or 'asc', the exclusive score to start after ('+inf'/'-inf' for the first page),
--       how many games to find, how many candidates to look at at most.
-- Reply: member, score, member, score, …, then more (1 if the index goes on past what was looked at), then the
-- last score looked at (the cursor to continue after).
local nand = tonumber(ARGV[1])
local desc = ARGV[2] == 'desc'
local last = ARGV[3]
local limit = tonumber(ARGV[4])
local budget = tonumber(ARGV[5])
local page = math.max(limit, 100)
local found = {}
local nfound = 0
local scanned = 0
local more = 1

local function passes(member)
  for i = 2, 1 + nand do
    if not redis.call('ZSCORE', KEYS[i], member) then return false end
  end
  if #KEYS == 1 + nand then return true end
  for i = 2 + nand, #KEYS do
    if redis.call('ZSCORE', KEYS[i], member) then return true end
  end
  return false
end

while nfound < limit and scanned < budget do
  local bound = last
  if bound ~= '+inf' and bound ~= '-inf' then bound = '(' .. bound end
  local rows
  if desc then
    rows = redis.call('ZREVRANGEBYSCORE', KEYS[1], bound, '-inf', 'WITHSCORES', 'LIMIT', 0, page)
  else
    rows = redis.call('ZRANGEBYSCORE', KEYS[1], bound, '+inf', 'WITHSCORES', 'LIMIT', 0, page)
  end
  local i = 1
  while i <= #rows and nfound < limit and scanned < budget do
    local member, score = rows[i], rows[i + 1]
    scanned = scanned + 1
    last = score
    if passes(member) then
      found[#found + 1] = member
      found[#found + 1] = score
      nfound = nfound + 1
    end
    i = i + 2
  end
  if i > #rows and #rows < 2 * page then more = 0 break end
end
if more == 1 and nfound >= limit then
  -- a full page: is there anything past it at all?
  local bound = '(' .. last
  local next_row
  if desc then next_row = redis.call('ZREVRANGEBYSCORE', KEYS[1], bound, '-inf', 'LIMIT', 0, 1)
  else next_row = redis.call('ZRANGEBYSCORE', KEYS[1], bound, '+inf', 'LIMIT', 0, 1) end
  if #next_row == 0 then more = 0 end
end
found[#found + 1] = more
found[#found + 1] = last
return found
