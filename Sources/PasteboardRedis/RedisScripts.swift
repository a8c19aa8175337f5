/// The server-side scripts (Lua, run by EVAL) that make every change of a
/// board one atomic step on the server: a write swapped in from its
/// staged pieces, a counted paste, a clear, history pruning. pb-redis(7)
/// describes the keys they use. Every script takes the key prefix as its
/// first argument.
enum RedisScripts {
  /// The fields of an item's hash that a read needs, in this order.
  static let itemFields = ["types", "sizes", "blobs", "src", "items", "sensitive", "nonce", "written", "expires"]

  /// Helpers every script starts with. `release` drops one reference to
  /// an item; the last one gives the item and its pieces `grace`
  /// milliseconds to live, so a reader still streaming them finishes.
  static let common = """
    local P = ARGV[1]
    local function each_piece(id, f)
      local blobs = redis.call('HGET', P .. 'item:' .. id, 'blobs')
      if not blobs then return end
      local j = 0
      for n in string.gmatch(blobs, '%d+') do
        for i = 0, tonumber(n) - 1 do f(P .. 'piece:' .. id .. ':' .. j .. ':' .. i) end
        j = j + 1
      end
    end
    local function release(id, grace)
      local item = P .. 'item:' .. id
      if redis.call('EXISTS', item) == 0 then return end
      if redis.call('HINCRBY', item, 'refs', -1) > 0 then return end
      local ttl = redis.call('PTTL', item)
      if ttl >= 0 and ttl <= grace then return end
      each_piece(id, function(k) redis.call('PEXPIRE', k, grace) end)
      redis.call('PEXPIRE', item, grace)
    end
    local function clear_board(board, grace)
      local count = redis.call('INCR', P .. 'count:' .. board)
      local head = P .. 'head:' .. board
      local old = redis.call('HGET', head, 'id')
      redis.call('DEL', head)
      if old then release(old, grace) end
      redis.call('SADD', P .. 'boards', board)
      redis.call('PUBLISH', P .. 'changes:' .. board, count)
    end
    local function prune(hist, entries, total_max, grace)
      local list = redis.call('LRANGE', hist, 0, -1)
      local kept, sum = 0, 0
      for i, e in ipairs(list) do
        local id = string.match(e, ' (.+)$')
        local t = tonumber(redis.call('HGET', P .. 'item:' .. id, 'total') or '0')
        if i > entries or sum + t > total_max then break end
        sum = sum + t
        kept = i
      end
      for i = kept + 1, #list do
        redis.call('RPOP', hist)
        release(string.match(list[i], ' (.+)$'), grace)
      end
    end

    """

  /// Swaps a staged item in on every board named: ARGV = prefix, id, ttl
  /// (ms, 0 for none), pastes ('' for no limit), sensitive ('0'/'1'),
  /// history entries, entry max, total max, grace, then the item's
  /// fields (types, sizes, blobs, src, items, nonce, total), then the
  /// boards. Refuses when a staged piece is gone (expired: the write took
  /// too long). Returns the boards' new counts.
  static let write = common + """
    local id, ttl, pastes, sensitive = ARGV[2], tonumber(ARGV[3]), ARGV[4], ARGV[5]
    local entries, entry_max, total_max, grace = tonumber(ARGV[6]), tonumber(ARGV[7]), tonumber(ARGV[8]), tonumber(ARGV[9])
    local total = tonumber(ARGV[16])
    local item = P .. 'item:' .. id
    local j = 0
    for n in string.gmatch(ARGV[12], '%d+') do
      for i = 0, tonumber(n) - 1 do
        if redis.call('EXISTS', P .. 'piece:' .. id .. ':' .. j .. ':' .. i) == 0 then
          return redis.error_reply('PBSTAGING the staged content expired before the write completed')
        end
      end
      j = j + 1
    end
    local t = redis.call('TIME')
    local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
    redis.call('HSET', item, 'types', ARGV[10], 'sizes', ARGV[11], 'blobs', ARGV[12], 'src', ARGV[13],
      'items', ARGV[14], 'nonce', ARGV[15], 'total', ARGV[16], 'sensitive', sensitive, 'written', now, 'refs', 0)
    if ttl > 0 then
      redis.call('HSET', item, 'expires', now + ttl)
      redis.call('PEXPIRE', item, ttl)
      each_piece(id, function(k) redis.call('PEXPIRE', k, ttl) end)
    else
      each_piece(id, function(k) redis.call('PERSIST', k) end)
    end
    local keep = ttl == 0 and pastes == '' and sensitive == '0' and entries > 0 and total <= entry_max and total <= total_max
    local counts = {}
    for b = 17, #ARGV do
      local board = ARGV[b]
      local count = redis.call('INCR', P .. 'count:' .. board)
      local head = P .. 'head:' .. board
      local old = redis.call('HGET', head, 'id')
      redis.call('DEL', head)
      redis.call('HSET', head, 'id', id, 'count', count)
      if pastes ~= '' then redis.call('HSET', head, 'pastes', pastes) end
      if ttl > 0 then redis.call('PEXPIRE', head, ttl) end
      redis.call('HINCRBY', item, 'refs', 1)
      if old then release(old, grace) end
      redis.call('SADD', P .. 'boards', board)
      if keep then
        local hist = P .. 'history:' .. board
        redis.call('LPUSH', hist, count .. ' ' .. id)
        redis.call('HINCRBY', item, 'refs', 1)
        prune(hist, entries, total_max, grace)
      end
      redis.call('PUBLISH', P .. 'changes:' .. board, count)
      counts[#counts + 1] = count
    end
    if redis.call('HGET', item, 'refs') == '0' then release(id, grace) end
    return counts
    """

  /// A board's content: ARGV = prefix, board, paste ('1' counts one
  /// paste against a limit, clearing the board after the last), grace.
  /// Returns {count} for an empty board, else {count, id, pastes left
  /// (-1: no limit), the item's `itemFields`...}.
  static let read = common + """
    local board, paste, grace = ARGV[2], ARGV[3] == '1', tonumber(ARGV[4])
    local count = tonumber(redis.call('GET', P .. 'count:' .. board) or '0')
    local head = P .. 'head:' .. board
    local id = redis.call('HGET', head, 'id')
    if not id then return {count} end
    local f = redis.call('HMGET', P .. 'item:' .. id, \(itemFields.map { "'\($0)'" }.joined(separator: ", ")))
    if not f[1] then return {count} end
    local left = -1
    local pastes = redis.call('HGET', head, 'pastes')
    if pastes then
      left = tonumber(pastes)
      if paste then
        left = left - 1
        if left <= 0 then clear_board(board, grace) else redis.call('HSET', head, 'pastes', left) end
      end
    end
    local out = {count, id, left}
    for i = 1, \(itemFields.count) do out[#out + 1] = f[i] or '' end
    return out
    """

  /// Empties boards: ARGV = prefix, expected count ('' for any), grace,
  /// then the boards. Refuses, clearing none, when a count moved on.
  static let clear = common + """
    if ARGV[2] ~= '' then
      for b = 4, #ARGV do
        local c = redis.call('GET', P .. 'count:' .. ARGV[b]) or '0'
        if c ~= ARGV[2] then return redis.error_reply('PBREFUSED ' .. c .. ' ' .. ARGV[b]) end
      end
    end
    for b = 4, #ARGV do clear_board(ARGV[b], tonumber(ARGV[3])) end
    return 1
    """

  /// A board's history, newest first: ARGV = prefix, board. Each entry is
  /// {count, id, types, sizes, items, written, the first 256 bytes of the
  /// first representation}, or {count, id} when its item is gone.
  static let history = common + """
    local list = redis.call('LRANGE', P .. 'history:' .. ARGV[2], 0, -1)
    local out = {}
    for _, e in ipairs(list) do
      local count, id = string.match(e, '^(%d+) (.+)$')
      local f = redis.call('HMGET', P .. 'item:' .. id, 'types', 'sizes', 'items', 'written', 'src')
      if f[1] then
        local first = string.match(f[5], '^(%d+)') or '0'
        local sample = redis.call('GETRANGE', P .. 'piece:' .. id .. ':' .. first .. ':0', 0, 255)
        out[#out + 1] = {count, id, f[1], f[2], f[3], f[4], sample}
      else
        out[#out + 1] = {count, id}
      end
    end
    return out
    """

  /// Forgets a board's history: ARGV = prefix, board, grace.
  static let clearHistory = common + """
    local hist = P .. 'history:' .. ARGV[2]
    for _, e in ipairs(redis.call('LRANGE', hist, 0, -1)) do
      release(string.match(e, ' (.+)$'), tonumber(ARGV[3]))
    end
    redis.call('DEL', hist)
    return 1
    """
}
