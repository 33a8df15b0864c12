-- Drives the MTHDS language server from a REAL Neovim (headless), the way a user's config would,
-- and writes what happened to a JSON file for test/e2e/neovim.test.ts.
--
--   MTHDS_NODE=node MTHDS_SERVER=server/bin/mthds-language-server.js \
--   MTHDS_FILE=/tmp/x/broken.mthds MTHDS_RESULT=/tmp/x/result.json \
--   nvim --headless -u NONE -i NONE -n -c "luafile test/e2e/neovim/check.lua"
--
-- Neovim 0.8+ has vim.lsp.start (what docs/editors.md shows); Debian 12 ships 0.7.2, which has only
-- vim.lsp.start_client + vim.lsp.buf_attach_client: the script uses whichever exists and records
-- which. With MTHDS_CONFIG (a Lua file: a docs/editors.md snippet) the script starts nothing itself: the
-- config's autocmd must start the server. Completion, definition, the call hierarchy and
-- implementation are asked only when the server advertises them; otherwise the result says "skipped" with the reason (and it is printed),
-- never silently.

local result = { steps = {}, completion = {}, definition = {}, calls = {}, implementation = {} }
local out_path = os.getenv('MTHDS_RESULT')

local function say(line)
  io.stderr:write('[mthds-nvim] ' .. line .. '\n')
end

local function finish()
  local f = assert(io.open(out_path, 'w'))
  f:write(vim.fn.json_encode(result))
  f:close()
  vim.cmd('qall!')
end

local function step(name)
  table.insert(result.steps, name)
end

local ok, err = pcall(function()
  local v = vim.version()
  result.nvim = string.format('%d.%d.%d', v.major, v.minor, v.patch)

  local file = assert(os.getenv('MTHDS_FILE'), 'MTHDS_FILE is not set')
  local root = vim.fn.fnamemodify(file, ':h')
  local user_config = os.getenv('MTHDS_CONFIG')
  if user_config and user_config ~= '' then
    -- A user's init.lua (a docs/editors.md snippet): filetype detection is on in a normal start-up.
    vim.cmd('filetype on')
    dofile(user_config)
    result.mode = 'config'
  else
    result.mode = 'direct'
  end
  vim.cmd('edit ' .. vim.fn.fnameescape(file))
  local bufnr = vim.api.nvim_get_current_buf()
  if result.mode == 'direct' then
    -- -u NONE: no filetype detection; a user's config maps *.mthds to the mthds filetype.
    vim.bo[bufnr].filetype = 'mthds'
  end
  result.filetype = vim.bo[bufnr].filetype
  step('opened')

  local published = 0
  local config = {
    name = 'mthds',
    cmd = { os.getenv('MTHDS_NODE') or 'node', os.getenv('MTHDS_SERVER') or 'server/bin/mthds-language-server.js', '--stdio' },
    root_dir = root,
    -- Answered to the server's workspace/configuration request (section "mthds").
    settings = { mthds = { diagnostics = { debounceMs = 0 } } },
    handlers = {
      ['textDocument/publishDiagnostics'] = function(e, res, ctx, cfg)
        published = published + 1
        return vim.lsp.handlers['textDocument/publishDiagnostics'](e, res, ctx, cfg)
      end,
    },
  }

  local client_id
  if result.mode == 'config' then
    -- The config's FileType autocmd started (or reused) a client for the buffer: find it.
    local function attached()
      local list = vim.lsp.get_clients and vim.lsp.get_clients({ bufnr = bufnr }) or vim.lsp.buf_get_clients(bufnr)
      for _, c in pairs(list) do
        return c.id
      end
      return nil
    end
    vim.wait(10000, function()
      client_id = attached()
      return client_id ~= nil
    end, 20)
    result.api = 'config'
  elseif vim.lsp.start then
    client_id = vim.lsp.start(config)
    result.api = 'vim.lsp.start'
  else
    client_id = vim.lsp.start_client(config)
    vim.lsp.buf_attach_client(bufnr, client_id)
    result.api = 'vim.lsp.start_client+buf_attach_client'
  end
  assert(client_id, 'no language client is attached to the buffer')
  step('started')

  local client
  local ready = vim.wait(15000, function()
    client = vim.lsp.get_client_by_id(client_id)
    return client ~= nil and client.initialized == true
  end, 20)
  assert(ready, 'the server did not initialize within 15 s')
  step('initialized')
  local caps = client.server_capabilities or {}
  result.server = client.server_info or vim.NIL
  result.capabilities = vim.tbl_keys(caps)
  table.sort(result.capabilities)

  local got = vim.wait(20000, function()
    return #vim.diagnostic.get(bufnr) > 0
  end, 20)
  assert(got, 'no diagnostics within 20 s')
  step('diagnostics')
  local codes = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    table.insert(codes, {
      code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code) or vim.NIL,
      line = d.lnum,
      col = d.col,
      severity = d.severity,
      message = d.message,
    })
  end
  result.diagnostics = codes
  result.published = published

  local lines = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
  local function find(pattern, needle, nth)
    local seen = 0
    for i, line in ipairs(lines) do
      if line:find(pattern) then
        seen = seen + 1
        if seen == (nth or 1) then
          local col = line:find(needle, 1, true)
          return { line = i - 1, character = col - 1 }
        end
      end
    end
    error('pattern not found: ' .. pattern)
  end
  local uri = vim.uri_from_bufnr(bufnr)

  local function ask(method, capability, position, into)
    if not caps[capability] then
      into.status = 'skipped'
      into.reason = 'the server does not advertise ' .. capability
      say(method .. ' SKIPPED: ' .. into.reason)
      return nil
    end
    local answers, request_err = vim.lsp.buf_request_sync(bufnr, method, { textDocument = { uri = uri }, position = position }, 10000)
    if not answers then
      into.status = 'error'
      into.reason = tostring(request_err)
      return nil
    end
    local answer = answers[client_id]
    if not answer or answer.err or answer.error then
      into.status = 'error'
      into.reason = vim.inspect(answer and (answer.err or answer.error) or 'no answer')
      return nil
    end
    into.status = 'ok'
    return answer.result
  end

  -- Completion inside the pipe reference of a step: `pipe = "|sugest_recipe"`.
  local at = find('pipe = "sugest_recipe"', 'sugest_recipe')
  result.completion.position = at
  local completion = ask('textDocument/completion', 'completionProvider', at, result.completion)
  if completion ~= nil then
    local items = completion.items or completion
    local labels = {}
    for i, item in ipairs(items) do
      if i <= 50 then table.insert(labels, item.label) end
    end
    result.completion.count = #items
    result.completion.labels = labels
    step('completion')
  end

  -- Definition of the concept in `output = "Recipe"` of plan_dinner (the second such line).
  local def_at = find('^output = "Recipe"', 'Recipe', 2)
  result.definition.position = def_at
  local definition = ask('textDocument/definition', 'definitionProvider', def_at, result.definition)
  if definition ~= nil then
    local locations = {}
    if definition.uri or definition.targetUri then definition = { definition } end
    for _, loc in ipairs(definition) do
      local range = loc.targetSelectionRange or loc.range or loc.targetRange
      table.insert(locations, { uri = loc.uri or loc.targetUri, line = range.start.line, character = range.start.character })
    end
    result.definition.locations = locations
    step('definition')
  end

  -- Call hierarchy: the typo of the step fixed in the buffer (sent as the editor sends edits),
  -- then plan_dinner prepared from its header and its outgoing calls asked until the server has
  -- the edit: suggest_recipe, from the step's pipe reference.
  local step_at = find('pipe = "sugest_recipe"', 'sugest_recipe')
  local step_line = lines[step_at.line + 1]
  vim.api.nvim_buf_set_lines(bufnr, step_at.line, step_at.line + 1, false, { (step_line:gsub('sugest_recipe', 'suggest_recipe')) })
  lines = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
  local plan_at = find('^%[pipe.plan_dinner%]', 'plan_dinner')
  local items = ask('textDocument/prepareCallHierarchy', 'callHierarchyProvider', plan_at, result.calls)
  if items ~= nil and items[1] then
    result.calls.item = items[1].name
    local outgoing
    vim.wait(10000, function()
      local answers = vim.lsp.buf_request_sync(bufnr, 'callHierarchy/outgoingCalls', { item = items[1] }, 5000)
      local answer = answers and answers[client_id]
      outgoing = answer and answer.result
      return outgoing ~= nil and #outgoing > 0
    end, 100)
    result.calls.outgoing = {}
    for _, call in ipairs(outgoing or {}) do
      table.insert(result.calls.outgoing, { name = call.to.name, line = call.fromRanges[1].start.line })
    end
    step('calls')
  end
  -- Implementation of a pipe that has no signature: asked, answered empty.
  local impl = ask('textDocument/implementation', 'implementationProvider', find('^%[pipe.suggest_recipe%]', 'suggest_recipe'), result.implementation)
  if result.implementation.status == 'ok' then
    result.implementation.count = impl == nil and 0 or #impl
    step('implementation')
  end

  vim.lsp.stop_client(client_id)
  vim.wait(2000, function()
    return vim.lsp.get_client_by_id(client_id) == nil
  end, 20)
  step('stopped')
end)

if not ok then
  result.error = tostring(err)
  say('ERROR: ' .. tostring(err))
end
finish()
