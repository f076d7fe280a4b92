/*
 * paynotify operator console (docs/operations.md "Operator console").
 *
 * Calls only the documented admin API (docs/api.md "Admin API") with the token the operator pasted, kept in this
 * tab's sessionStorage and sent as the bearer header; no cookies. Every value from the API is put into the page
 * with textContent or as an attribute set through the DOM, never parsed as HTML: raw notification bodies are
 * attacker-controlled text. The Content-Security-Policy the service sends allows no inline script or style.
 */
(function () {
  'use strict';

  var TOKEN_KEY = 'paynotify.adminToken';
  var ENABLED_KEY = 'paynotify.enabledWebhooks';
  var PAGE = 50;
  /** How many pages of a channel's events the order page walks at most (500 events a page). */
  var MAX_EVENT_PAGES = 10;

  // ---------------------------------------------------------------- DOM helpers (text only, never HTML)

  function $(id) {
    return document.getElementById(id);
  }

  /** An element; attrs: className, id, href, type, title, data (object), disabled, hidden; children: nodes or text. */
  function el(tag, attrs) {
    var node = document.createElement(tag);
    if (attrs) {
      Object.keys(attrs).forEach(function (k) {
        var v = attrs[k];
        if (v === undefined || v === null) {
          return;
        }
        if (k === 'className') {
          node.className = v;
        } else if (k === 'data') {
          Object.keys(v).forEach(function (d) {
            node.dataset[d] = String(v[d]);
          });
        } else if (k === 'disabled' || k === 'hidden') {
          node[k] = Boolean(v);
        } else if (k === 'href') {
          // only the console's own hash routes
          node.setAttribute('href', String(v).charAt(0) === '#' ? String(v) : '#');
        } else {
          node.setAttribute(k, String(v));
        }
      });
    }
    for (var i = 2; i < arguments.length; i++) {
      appendOne(node, arguments[i]);
    }
    return node;
  }

  /** Appends every further argument to node: nodes as they are, arrays item by item, anything else as text. */
  function append(node) {
    for (var i = 1; i < arguments.length; i++) {
      appendOne(node, arguments[i]);
    }
    return node;
  }

  function appendOne(node, child) {
    if (child === undefined || child === null || child === false) {
      return;
    }
    if (Array.isArray(child)) {
      child.forEach(function (c) {
        appendOne(node, c);
      });
    } else if (typeof child === 'object' && child.nodeType) {
      node.appendChild(child);
    } else {
      node.appendChild(document.createTextNode(String(child)));
    }
  }

  function clear(node) {
    while (node.firstChild) {
      node.removeChild(node.firstChild);
    }
    return node;
  }

  function text(v) {
    return v === undefined || v === null || v === '' ? '—' : String(v);
  }

  /** A time exactly as the API gives it (UTC, milliseconds), or a dash. */
  function time(v) {
    return el('span', {className: 'time', title: 'UTC'}, text(v));
  }

  /** Fen as yuan, with the fen amount alongside. */
  function money(fen, currency) {
    if (fen === undefined || fen === null) {
      return el('span', {className: 'muted'}, '—');
    }
    var n = Number(fen);
    var sign = n < 0 ? '-' : '';
    var abs = Math.abs(n);
    var yuan = Math.floor(abs / 100) + '.' + String(abs % 100).padStart(2, '0');
    var prefix = !currency || currency === 'CNY' ? '¥' : currency + ' ';
    return el('span', {className: 'money'}, sign + prefix + yuan, el('span', {className: 'fen'}, ' ' + n + ' fen'));
  }

  function badge(value, kind) {
    var v = text(value);
    return el('span', {className: 'badge ' + (kind || 'b-' + v.toLowerCase().replace(/[^a-z0-9]+/g, '-'))}, v);
  }

  function table(headers, rows, className) {
    return el(
      'table',
      {className: className || 'grid'},
      el('thead', null, el('tr', null, headers.map(function (h) {
        return el('th', null, h);
      }))),
      el('tbody', null, rows)
    );
  }

  function td() {
    var cell = el('td');
    for (var i = 0; i < arguments.length; i++) {
      appendOne(cell, arguments[i]);
    }
    return cell;
  }

  function orderHref(channel, outTradeNo) {
    return '#/order/' + encodeURIComponent(channel) + '/' + encodeURIComponent(outTradeNo);
  }

  // ---------------------------------------------------------------- messages

  function flash(message, kind) {
    var f = $('flash');
    clear(f);
    if (!message) {
      f.hidden = true;
      return;
    }
    f.className = 'flash ' + (kind || 'error');
    f.appendChild(document.createTextNode(message));
    f.hidden = false;
  }

  // ---------------------------------------------------------------- the admin API

  function token() {
    return sessionStorage.getItem(TOKEN_KEY);
  }

  function ApiError(status, title, detail) {
    this.status = status;
    this.title = title;
    this.detail = detail;
    this.message = status + ' ' + (title || 'error') + (detail ? ': ' + detail : '');
  }

  /** Thrown after a 401: the token was refused and forgotten; the login form shows. */
  function TokenRefused() {
    this.message = 'token refused';
  }

  /** The path with each set parameter appended (the path already has a query). */
  function withParams(path, params) {
    Object.keys(params).forEach(function (k) {
      if (params[k]) {
        path += '&' + k + '=' + encodeURIComponent(params[k]);
      }
    });
    return path;
  }

  /** Calls the admin API (with an optional body); resolves with the JSON answer (null when there is none). */
  function api(method, path, body, contentType) {
    var t = token();
    if (!t) {
      showLogin(null);
      return Promise.reject(new TokenRefused());
    }
    var headers = {Authorization: 'Bearer ' + t, Accept: 'application/json, application/problem+json'};
    if (body !== undefined && body !== null) {
      headers['Content-Type'] = contentType || 'application/json';
    }
    return fetch(path, {
      method: method,
      headers: headers,
      body: body === undefined ? null : body,
      credentials: 'omit',
      cache: 'no-store',
      redirect: 'error'
    }).then(function (res) {
      if (res.status === 401) {
        sessionStorage.removeItem(TOKEN_KEY);
        showLogin(
          'Token refused: the service answered 401 Unauthorized. The token was forgotten; paste a valid admin ' +
            'token (one of paynotify.admin.tokens).'
        );
        throw new TokenRefused();
      }
      var type = res.headers.get('Content-Type') || '';
      var body = type.indexOf('json') >= 0 ? res.json().catch(function () {
        return null;
      }) : Promise.resolve(null);
      return body.then(function (json) {
        if (!res.ok) {
          throw new ApiError(res.status, json && json.title, json && json.detail);
        }
        return json;
      });
    });
  }

  /** A failed call, said on the page (a refused token has said so already). */
  function failed(e) {
    if (e instanceof TokenRefused) {
      return;
    }
    flash(e instanceof ApiError ? 'The admin API answered ' + e.message : 'The request failed: ' + e, 'error');
  }

  // ---------------------------------------------------------------- sign-in

  function showLogin(message) {
    $('nav').hidden = true;
    $('jump').hidden = true;
    $('logout').hidden = true;
    $('view').hidden = true;
    clear($('view'));
    $('login').hidden = false;
    $('token').value = '';
    flash(message, 'error');
    $('token').focus();
  }

  function showApp() {
    $('login').hidden = true;
    $('nav').hidden = false;
    $('jump').hidden = false;
    $('logout').hidden = false;
    $('view').hidden = false;
  }

  function signIn(ev) {
    ev.preventDefault();
    var t = $('token').value.trim();
    if (!t) {
      return;
    }
    sessionStorage.setItem(TOKEN_KEY, t);
    // one cheap call proves the token before any page shows
    api('GET', '/admin/orders?limit=1').then(function () {
      flash(null);
      showApp();
      if (!location.hash || location.hash === '#' || location.hash === '#/') {
        location.hash = '#/attention';
      } else {
        route();
      }
    }, failed);
  }

  // ---------------------------------------------------------------- routing

  /** '#/order/a/b?x=1' → {parts: ['order', 'a', 'b'], query: URLSearchParams} */
  function parseHash() {
    var h = location.hash.replace(/^#\/?/, '');
    var q = h.indexOf('?');
    var query = new URLSearchParams(q >= 0 ? h.substring(q + 1) : '');
    var path = q >= 0 ? h.substring(0, q) : h;
    var parts = path.split('/').map(function (p) {
      try {
        return decodeURIComponent(p);
      } catch (e) {
        return p;
      }
    });
    return {parts: parts, query: query};
  }

  var generation = 0;

  /** A message that survives the next change of page (an action's outcome shown on the page it leads to). */
  var carried = null;

  /** Goes to another page, keeping the message line. */
  function go(hash, message, kind) {
    carried = {message: message, kind: kind};
    location.hash = hash;
  }

  function route() {
    if (!token()) {
      showLogin(null);
      return;
    }
    showApp();
    generation++;
    var r = parseHash();
    var view = clear($('view'));
    ['nav-attention', 'nav-webhooks', 'nav-statements'].forEach(function (id) {
      $(id).classList.remove('active');
    });
    if (r.parts[0] === 'order' && r.parts.length === 3 && r.parts[1] && r.parts[2]) {
      orderPage(view, r.parts[1], r.parts[2], generation);
    } else if (r.parts[0] === 'statements' && r.parts.length === 3 && r.parts[1] && r.parts[2]) {
      $('nav-statements').classList.add('active');
      statementPage(view, r.parts[1], r.parts[2], generation);
    } else if (r.parts[0] === 'statements') {
      $('nav-statements').classList.add('active');
      statementsPage(view, r.query, generation);
    } else if (r.parts[0] === 'webhooks') {
      $('nav-webhooks').classList.add('active');
      webhooksPage(view, generation);
    } else {
      $('nav-attention').classList.add('active');
      attentionPage(view, r.query, generation);
    }
  }

  /** True while the page that started a call is still the one showing. */
  function current(gen) {
    return gen === generation;
  }

  // ---------------------------------------------------------------- Attention

  function attentionPage(view, query, gen) {
    var channel = query.get('channel') || '';
    var reason = query.get('reason') || '';
    var reasonsSeen = {};
    if (reason) {
      reasonsSeen[reason] = true;
    }

    var channelInput = el('input', {id: 'f-channel', placeholder: 'all channels', autocomplete: 'off'});
    channelInput.value = channel;
    var reasonSelect = el('select', {id: 'f-reason'});
    var filters = el(
      'form',
      {className: 'filters', id: 'attention-filters'},
      el('label', {for: 'f-channel'}, 'Channel'),
      channelInput,
      el('label', {for: 'f-reason'}, 'Reason'),
      reasonSelect,
      el('button', {type: 'submit'}, 'Filter')
    );
    filters.addEventListener('submit', function (ev) {
      ev.preventDefault();
      var q = new URLSearchParams();
      if (channelInput.value.trim()) {
        q.set('channel', channelInput.value.trim());
      }
      if (reasonSelect.value) {
        q.set('reason', reasonSelect.value);
      }
      var s = q.toString();
      location.hash = '#/attention' + (s ? '?' + s : '');
    });

    function fillReasons() {
      var chosen = reasonSelect.value || reason;
      clear(reasonSelect);
      reasonSelect.appendChild(el('option', {value: ''}, 'any reason'));
      Object.keys(reasonsSeen).sort().forEach(function (r) {
        var o = el('option', {value: r}, r);
        if (r === chosen) {
          o.selected = true;
        }
        reasonSelect.appendChild(o);
      });
    }
    fillReasons();

    var body = el('tbody', {id: 'attention-rows'});
    var more = el('button', {type: 'button', id: 'attention-more', hidden: true}, 'Load more');
    var status = el('p', {className: 'muted', id: 'attention-status'}, 'Loading…');
    var shown = 0;

    append(
      view,
      el('h1', null, 'Orders needing attention'),
      el(
        'p',
        {className: 'lede'},
        'Orders with attention reasons, newest first (GET /admin/orders?attention=true). The channel filter is the ' +
          "API's; the reason filter applies to the rows loaded so far."
      ),
      filters,
      el(
        'table',
        {className: 'grid', id: 'attention-table'},
        el(
          'thead',
          null,
          el('tr', null, ['Created (UTC)', 'Channel', 'Sub-merchant', 'Order', 'Amount', 'State', 'Attention', 'Updated (UTC)'].map(
            function (h) {
              return el('th', null, h);
            }
          ))
        ),
        body
      ),
      status,
      more
    );

    function load(after) {
      more.disabled = true;
      var path = withParams('/admin/orders?attention=true&limit=' + PAGE, { channel: channel, after: after });
      api('GET', path).then(function (page) {
        if (!current(gen)) {
          return;
        }
        page.items.forEach(function (o) {
          (o.attention || []).forEach(function (r) {
            reasonsSeen[r] = true;
          });
          if (reason && (o.attention || []).indexOf(reason) < 0) {
            return;
          }
          shown++;
          body.appendChild(
            el(
              'tr',
              {className: 'order-row', data: {channel: o.channel, outTradeNo: o.outTradeNo}},
              td(time(o.createdAt)),
              td(o.channel),
              td(el('span', {className: 'mono'}, text(o.subMerchantId))),
              td(el('a', {href: orderHref(o.channel, o.outTradeNo), className: 'order-link'}, o.outTradeNo)),
              td(money(o.amount, o.currency)),
              td(badge(o.state)),
              td((o.attention || []).map(function (r) {
                return badge(r, 'reason');
              })),
              td(time(o.updatedAt))
            )
          );
        });
        fillReasons();
        status.textContent =
          shown === 0 && !page.next
            ? 'No order needs attention' + (channel ? ' on ' + channel : '') + (reason ? ' for ' + reason : '') + '.'
            : shown + ' shown' + (page.next ? '; more on the next page.' : '; that is all.');
        more.hidden = !page.next;
        more.disabled = false;
        more.onclick = function () {
          load(page.next);
        };
      }, failed);
    }
    load(null);
  }

  // ---------------------------------------------------------------- Order

  function orderPage(view, channel, outTradeNo, gen) {
    var base = '/admin/orders/' + encodeURIComponent(channel) + '/' + encodeURIComponent(outTradeNo);
    var summary = el('div', {id: 'order-summary'});
    var queryResult = el('div', {id: 'query-result', className: 'result', hidden: true});
    var queryButton = el('button', {type: 'button', id: 'query-now'}, 'Query the provider now');
    var notifications = el('div', {id: 'notifications'}, el('p', {className: 'muted'}, 'Loading…'));
    var refunds = el('div', {id: 'refunds'});
    var events = el('div', {id: 'events'}, el('p', {className: 'muted'}, 'Loading…'));

    append(
      view,
      el('p', {className: 'crumbs'}, el('a', {href: '#/attention'}, '← Attention')),
      el('h1', null, 'Order ', el('span', {className: 'mono', id: 'order-title'}, outTradeNo), ' on ', channel),
      summary,
      el('div', {className: 'actions'}, queryButton, queryResult),
      el('h2', null, 'Notifications and query answers'),
      notifications,
      el('h2', null, 'Refunds'),
      refunds,
      el('h2', null, 'Merchant events and deliveries'),
      events
    );

    queryButton.addEventListener('click', function () {
      queryButton.disabled = true;
      queryResult.hidden = true;
      api('POST', base + '/query').then(function (answer) {
        if (!current(gen)) {
          return;
        }
        clear(queryResult);
        queryResult.className = 'result ok';
        append(
          queryResult,
          'Query answered ',
          el('strong', {id: 'query-answer'}, text(answer.result)),
          answer.notification
            ? [' — recorded as ', badge(answer.notification.outcome), answer.notification.reason ? badge(answer.notification.reason, 'reason') : null]
            : ' — nothing recorded'
        );
        queryResult.hidden = false;
        queryButton.disabled = false;
        loadOrder();
        loadNotifications();
      }, function (e) {
        queryButton.disabled = false;
        if (e instanceof ApiError) {
          clear(queryResult);
          queryResult.className = 'result error';
          append(queryResult, 'Query refused: ' + e.message);
          queryResult.hidden = false;
        } else {
          failed(e);
        }
      });
    });

    function loadOrder() {
      api('GET', base).then(function (o) {
        if (!current(gen)) {
          return;
        }
        clear(summary);
        append(
          summary,
          el(
            'dl',
            {className: 'facts'},
            fact('State', badge(o.state), 'order-state'),
            fact('Amount', money(o.amount, o.currency)),
            fact('Refunded', money(o.refundedAmount, o.currency)),
            fact('Provider', text(o.provider)),
            fact('Sub-merchant', el('span', {className: 'mono'}, text(o.subMerchantId)), 'order-sub-merchant'),
            fact('Sub-app', el('span', {className: 'mono'}, text(o.subAppId)), 'order-sub-app'),
            fact('Transaction', el('span', {className: 'mono'}, text(o.transactionId))),
            fact('Description', text(o.description), 'order-description'),
            fact('Created (UTC)', time(o.createdAt)),
            fact('Paid (UTC)', time(o.paidAt)),
            fact('Updated (UTC)', time(o.updatedAt)),
            fact('Last queried (UTC)', time(o.lastQueriedAt)),
            fact('Queries sent', text(o.queryCount)),
            fact(
              'Attention',
              (o.attention || []).length
                ? o.attention.map(function (r) {
                    return badge(r, 'reason');
                  })
                : el('span', {className: 'muted'}, 'none'),
              'order-attention'
            )
          )
        );
        queryButton.disabled = o.state !== 'PENDING';
        queryButton.title = o.state === 'PENDING' ? '' : 'Only a PENDING order is queried.';
        clear(refunds);
        append(
          refunds,
          o.refunds && o.refunds.length
            ? table(
                ['Refund no', 'Refund id', 'Amount', 'Status', 'Succeeded (UTC)', 'Created (UTC)', 'Updated (UTC)'],
                o.refunds.map(function (r) {
                  return el(
                    'tr',
                    null,
                    td(el('span', {className: 'mono'}, r.outRefundNo)),
                    td(el('span', {className: 'mono'}, text(r.refundId))),
                    td(money(r.amount, o.currency)),
                    td(badge(r.status)),
                    td(time(r.succeededAt)),
                    td(time(r.createdAt)),
                    td(time(r.updatedAt))
                  );
                })
              )
            : el('p', {className: 'muted'}, 'No refunds.')
        );
        loadEvents(o.createdAt);
      }, function (e) {
        if (e instanceof ApiError && e.status === 404) {
          clear(summary);
          append(summary, el('p', {className: 'result error'}, 'No such order (404); notifications recorded for it, if any, are below.'));
          queryButton.disabled = true;
          loadEvents(null);
        } else {
          failed(e);
        }
      });
    }

    function fact(name, value, id) {
      return el('div', {className: 'fact'}, el('dt', null, name), el('dd', {id: id}, value));
    }

    function loadNotifications() {
      walk(base + '/notifications?limit=500', 20, function (items, truncated) {
        if (!current(gen)) {
          return;
        }
        clear(notifications);
        if (!items.length) {
          append(notifications, el('p', {className: 'muted'}, 'No notifications recorded.'));
          return;
        }
        var rows = [];
        items.forEach(function (n) {
          var rawRow = el('tr', {className: 'raw-row', hidden: true}, el('td', {colspan: 9}, rawView(n)));
          var toggle = el('button', {type: 'button', className: 'small raw-toggle', data: {id: n.id}}, 'Raw body');
          toggle.addEventListener('click', function () {
            rawRow.hidden = !rawRow.hidden;
            toggle.textContent = rawRow.hidden ? 'Raw body' : 'Hide';
          });
          rows.push(
            el(
              'tr',
              {className: 'notification-row', data: {id: n.id}},
              td(time(n.receivedAt)),
              td(badge(n.source, 'source')),
              td(badge(n.outcome)),
              td(n.reason ? badge(n.reason, 'reason') : el('span', {className: 'muted'}, '—')),
              td(text(n.providerStatus)),
              td(el('span', {className: 'mono'}, text(n.transactionId))),
              td(money(n.amount)),
              td(text(n.provider)),
              td(toggle)
            ),
            rawRow
          );
        });
        append(
          notifications,
          table(['Received (UTC)', 'Source', 'Outcome', 'Reason', 'Provider status', 'Transaction', 'Amount', 'Provider', ''], rows),
          truncated ? el('p', {className: 'muted'}, 'Only the first ' + items.length + ' are shown.') : null
        );
      });
    }

    /** A notification's raw body as text; for a form body also its decoded fields; the decoded JSON if any. */
    function rawView(n) {
      var box = el('div', {className: 'raw'});
      if (n.rawBody !== null && n.rawBody !== undefined) {
        append(box, el('h4', null, 'Raw body (as received)'), el('pre', {className: 'raw-body'}, n.rawBody));
        var fields = formFields(n.rawBody);
        if (fields) {
          append(
            box,
            el('h4', null, 'Form fields (percent-decoded)'),
            table(
              ['Field', 'Value'],
              fields.map(function (f) {
                return el('tr', null, td(el('span', {className: 'mono'}, f[0])), td(el('pre', {className: 'field'}, f[1])));
              }),
              'grid fields'
            )
          );
        }
      } else if (n.rawBodyBase64) {
        append(box, el('h4', null, 'Raw body (not UTF-8; base64)'), el('pre', {className: 'raw-body'}, n.rawBodyBase64));
      } else {
        append(box, el('p', {className: 'muted'}, 'No raw body.'));
      }
      if (n.decoded) {
        append(box, el('h4', null, 'Decoded (decrypted resource or req_info)'), el('pre', {className: 'decoded'}, JSON.stringify(n.decoded, null, 2)));
      }
      return box;
    }

    /** The fields of an application/x-www-form-urlencoded body (Alipay), or null for anything else. */
    function formFields(raw) {
      var s = raw.trim();
      if (!s || s.charAt(0) === '<' || s.charAt(0) === '{' || !/^[^=&\s]+=/.test(s)) {
        return null;
      }
      var out = [];
      new URLSearchParams(s).forEach(function (v, k) {
        out.push([k, v]);
      });
      return out.length ? out : null;
    }

    /**
     * The order's events: there is no per-order event call, so this walks GET /admin/events?channel= (newest
     * first, 500 a page) until it passes the order's creation (no event of the order is older) and keeps the
     * events whose data.order.outTradeNo is this order's; then GET /admin/events/{id} for each one's attempts.
     */
    var createdAt = null;
    function loadEvents(orderCreatedAt) {
      if (orderCreatedAt !== undefined) {
        createdAt = orderCreatedAt;
      }
      var found = [];
      var pages = 0;
      function step(after) {
        var path = '/admin/events?channel=' + encodeURIComponent(channel) + '&limit=500' + (after ? '&after=' + encodeURIComponent(after) : '');
        return api('GET', path).then(function (page) {
          pages++;
          var passed = false;
          page.items.forEach(function (e) {
            var o = e.data && e.data.order;
            if (o && o.outTradeNo === outTradeNo && o.channel === channel) {
              found.push(e);
            }
            if (createdAt && e.createdAt < createdAt) {
              passed = true;
            }
          });
          if (page.next && !passed && pages < MAX_EVENT_PAGES) {
            return step(page.next);
          }
          return Boolean(page.next && !passed);
        });
      }
      step(null)
        .then(function (truncated) {
          return Promise.all(
            found.map(function (e) {
              return api('GET', '/admin/events/' + encodeURIComponent(e.id));
            })
          ).then(function (detailed) {
            if (!current(gen)) {
              return;
            }
            renderEvents(detailed.reverse(), truncated);
          });
        })
        .catch(failed);
    }

    function renderEvents(list, truncated) {
      clear(events);
      if (!list.length) {
        append(events, el('p', {className: 'muted'}, 'No merchant events for this order.'));
      }
      list.forEach(function (e) {
        var card = el(
          'div',
          {className: 'event', data: {id: e.id}},
          el(
            'div',
            {className: 'event-head'},
            badge(e.type, 'type'),
            ' ',
            el('span', {className: 'mono'}, e.id),
            ' ',
            time(e.createdAt),
            e.data && e.data.reason ? [' ', badge(e.data.reason, 'reason')] : null,
            e.deliveries && e.deliveries.length ? redeliverButton(e.id, null, 'Redeliver to all') : null
          )
        );
        if (!e.deliveries || !e.deliveries.length) {
          append(card, el('p', {className: 'muted'}, 'No webhook deliveries (no subscribed client has a webhook).'));
        }
        (e.deliveries || []).forEach(function (d) {
          append(
            card,
            el(
              'div',
              {className: 'delivery', data: {client: d.client}},
              el(
                'div',
                {className: 'delivery-head'},
                el('strong', null, d.client),
                ' ',
                badge(d.state),
                ' ',
                el('span', {className: 'muted'}, d.attempts + ' attempt(s) since queued'),
                d.nextAttemptAt ? [' · next ', time(d.nextAttemptAt)] : null,
                d.lastStatus !== null && d.lastStatus !== undefined ? [' · last status ', String(d.lastStatus)] : null,
                d.lastError ? [' · ', d.lastError] : null,
                redeliverButton(e.id, d.client, 'Redeliver')
              ),
              d.attemptLog && d.attemptLog.length
                ? table(
                    ['Attempt at (UTC)', 'Status', 'Error', 'Duration'],
                    d.attemptLog.map(function (a) {
                      return el('tr', null, td(time(a.at)), td(text(a.status)), td(text(a.error)), td(a.durationMs + ' ms'));
                    }),
                    'grid attempts'
                  )
                : el('p', {className: 'muted small-text'}, 'No attempts yet.')
            )
          );
        });
        events.appendChild(card);
      });
      if (truncated) {
        append(events, el('p', {className: 'muted'}, 'Stopped after ' + MAX_EVENT_PAGES * 500 + " of the channel's newest events; older ones are not shown."));
      }
    }

    function redeliverButton(eventId, client, label) {
      var b = el('button', {type: 'button', className: 'small redeliver', data: {event: eventId, client: client || ''}}, label);
      b.addEventListener('click', function () {
        b.disabled = true;
        var path = '/admin/events/' + encodeURIComponent(eventId) + '/redeliver' + (client ? '?client=' + encodeURIComponent(client) : '');
        api('POST', path).then(function () {
          flash('Redelivery queued: ' + eventId + (client ? ' to ' + client : ' to every client') + '.', 'ok');
          loadEvents();
        }, function (e) {
          b.disabled = false;
          failed(e);
        });
      });
      return b;
    }

    loadOrder();
    loadNotifications();
  }

  /** Every page of a list call (up to max pages), concatenated; calls back with (items, truncated). */
  function walk(path, max, done) {
    var items = [];
    var pages = 0;
    function step(after) {
      api('GET', path + (after ? '&after=' + encodeURIComponent(after) : '')).then(function (page) {
        items = items.concat(page.items);
        pages++;
        if (page.next && pages < max) {
          step(page.next);
        } else {
          done(items, Boolean(page.next));
        }
      }, failed);
    }
    step(null);
  }

  // ---------------------------------------------------------------- Webhooks

  function enabledAt(client) {
    try {
      return (JSON.parse(sessionStorage.getItem(ENABLED_KEY) || '{}') || {})[client] || null;
    } catch (e) {
      return null;
    }
  }

  function rememberEnabled(client, at) {
    var m;
    try {
      m = JSON.parse(sessionStorage.getItem(ENABLED_KEY) || '{}') || {};
    } catch (e) {
      m = {};
    }
    m[client] = at;
    sessionStorage.setItem(ENABLED_KEY, JSON.stringify(m));
  }

  function webhooksPage(view, gen) {
    var disabledBox = el('div', {id: 'disabled-webhooks'}, el('p', {className: 'muted'}, 'Loading…'));
    var clientsBox = el('div', {id: 'clients'});
    append(
      view,
      el('h1', null, 'Webhooks'),
      el(
        'p',
        {className: 'lede'},
        'Pending and failed deliveries per client (GET /admin/events?state=PENDING and ?state=FAILED, the newest 500 ' +
          'events each). The API has no call that lists disabled webhooks: a client shows as disabled when one of its ' +
          'deliveries FAILED with status 410, which disables its webhook (docs/api.md "Webhooks"), unless this ' +
          'console enabled it after that attempt.'
      ),
      el('h2', null, 'Disabled webhooks'),
      disabledBox,
      el('h2', null, 'Deliveries by client'),
      clientsBox
    );

    Promise.all([api('GET', '/admin/events?state=PENDING&limit=500'), api('GET', '/admin/events?state=FAILED&limit=500')])
      .then(function (pages) {
        if (!current(gen)) {
          return;
        }
        var byClient = {};
        function add(page, state) {
          page.items.forEach(function (e) {
            (e.deliveries || []).forEach(function (d) {
              if (d.state !== state) {
                return;
              }
              var c = (byClient[d.client] = byClient[d.client] || {PENDING: [], FAILED: [], gone: null});
              c[state].push({event: e, delivery: d});
              if (state === 'FAILED' && d.lastStatus === 410 && (!c.gone || d.lastAttemptAt > c.gone.delivery.lastAttemptAt)) {
                c.gone = {event: e, delivery: d};
              }
            });
          });
        }
        add(pages[0], 'PENDING');
        add(pages[1], 'FAILED');
        var clients = Object.keys(byClient).sort();

        clear(disabledBox);
        var disabledRows = [];
        clients.forEach(function (client) {
          var gone = byClient[client].gone;
          if (!gone) {
            return;
          }
          var at = gone.delivery.lastAttemptAt;
          var enabled = enabledAt(client);
          var stateCell = td();
          var action = td();
          function showEnabled(when) {
            clear(stateCell);
            append(stateCell, badge('ENABLED', 'b-succeeded'), ' by this console at ', time(when));
            clear(action);
          }
          if (enabled && enabled > at) {
            showEnabled(enabled);
          } else {
            append(stateCell, badge('DISABLED', 'b-failed'), ' since a 410 at ', time(at));
            var b = el('button', {type: 'button', className: 'enable', data: {client: client}}, 'Enable webhook');
            b.addEventListener('click', function () {
              b.disabled = true;
              api('POST', '/admin/clients/' + encodeURIComponent(client) + '/webhook/enable').then(function () {
                var now = new Date().toISOString();
                rememberEnabled(client, now);
                showEnabled(now);
                flash('Webhook of ' + client + ' enabled: its waiting deliveries resume. The delivery that got the 410 stays FAILED until redelivered.', 'ok');
              }, function (e) {
                b.disabled = false;
                failed(e);
              });
            });
            append(action, b);
          }
          disabledRows.push(
            el(
              'tr',
              {className: 'disabled-row', data: {client: client}},
              td(el('strong', null, client)),
              td(stateCell),
              td(el('span', {className: 'mono'}, gone.event.id)),
              td(String(byClient[client].PENDING.length)),
              action
            )
          );
        });
        append(
          disabledBox,
          disabledRows.length
            ? table(['Client', 'Webhook', 'Event that got the 410', 'Deliveries waiting', ''], disabledRows)
            : el('p', {className: 'muted'}, 'No delivery failed with 410 among the newest events: no webhook looks disabled.')
        );

        clear(clientsBox);
        if (!clients.length) {
          append(clientsBox, el('p', {className: 'muted'}, 'No pending or failed deliveries.'));
        }
        clients.forEach(function (client) {
          var c = byClient[client];
          append(
            clientsBox,
            el(
              'div',
              {className: 'card client', data: {client: client}},
              el('h3', null, client, ' ', el('span', {className: 'muted'}, c.PENDING.length + ' pending · ' + c.FAILED.length + ' failed'), enableButton(client)),
              deliveriesTable('Pending', c.PENDING, client, gen),
              deliveriesTable('Failed', c.FAILED, client, gen)
            )
          );
        });
        if (pages[0].next || pages[1].next) {
          append(clientsBox, el('p', {className: 'muted'}, 'Only the newest 500 events of each state are shown.'));
        }
      })
      .catch(failed);
  }

  /**
   * Enable, for any listed client: the call is harmless when the webhook was not disabled (204), and the page's
   * "disabled" is only derived (a 410 older than the newest 500 failed events is not seen).
   */
  function enableButton(client) {
    var b = el('button', {type: 'button', className: 'small enable-any', data: {client: client}}, 'Enable webhook');
    b.addEventListener('click', function () {
      b.disabled = true;
      api('POST', '/admin/clients/' + encodeURIComponent(client) + '/webhook/enable').then(function () {
        rememberEnabled(client, new Date().toISOString());
        flash('Webhook of ' + client + ' enabled (or it was not disabled): its waiting deliveries resume.', 'ok');
        b.disabled = false;
      }, function (e) {
        b.disabled = false;
        failed(e);
      });
    });
    return b;
  }

  function deliveriesTable(title, list, client, gen) {
    if (!list.length) {
      return el('p', {className: 'muted'}, 'No ' + title.toLowerCase() + ' deliveries.');
    }
    return el(
      'div',
      null,
      el('h4', null, title),
      table(
        ['Event', 'Type', 'Order', 'Attempts', 'Last attempt (UTC)', 'Last status', 'Last error', 'Next attempt (UTC)', ''],
        list.map(function (x) {
          var e = x.event;
          var d = x.delivery;
          var o = (e.data && e.data.order) || {};
          var b = el('button', {type: 'button', className: 'small redeliver', data: {event: e.id, client: client}}, 'Redeliver');
          b.addEventListener('click', function () {
            b.disabled = true;
            api('POST', '/admin/events/' + encodeURIComponent(e.id) + '/redeliver?client=' + encodeURIComponent(client)).then(
              function () {
                flash('Redelivery queued: ' + e.id + ' to ' + client + '.', 'ok');
              },
              function (err) {
                b.disabled = false;
                failed(err);
              }
            );
          });
          return el(
            'tr',
            {className: 'delivery-row', data: {event: e.id}},
            td(el('span', {className: 'mono', title: 'created ' + e.createdAt}, e.id)),
            td(badge(e.type, 'type')),
            td(o.channel && o.outTradeNo ? el('a', {href: orderHref(o.channel, o.outTradeNo)}, o.channel + ' / ' + o.outTradeNo) : '—'),
            td(String(d.attempts)),
            td(time(d.lastAttemptAt)),
            td(text(d.lastStatus)),
            td(text(d.lastError)),
            td(time(d.nextAttemptAt)),
            td(b)
          );
        })
      )
    );
  }

  // ---------------------------------------------------------------- Statements

  var STATEMENT_STATUSES = ['DIFFERENCES', 'RECONCILED', 'NO_BILL', 'NOT_READY', 'ERROR'];

  function statementHref(channel, billDate) {
    return '#/statements/' + encodeURIComponent(channel) + '/' + encodeURIComponent(billDate);
  }

  /** "3 · ¥12.00" for a {count, amount} total, or a dash. */
  function total(t) {
    if (!t) {
      return el('span', {className: 'muted'}, '—');
    }
    return el('span', {className: 'total'}, String(t.count) + ' · ', money(t.amount));
  }

  /**
   * The ledger's own total of the day next to the bill's (the statement's ledger: orders paid that Beijing day,
   * refunds succeeded in it, read live); marked when it differs from the bill's.
   */
  function ledgerTotal(s, name) {
    var l = s.ledger && s.ledger[name];
    if (!l) {
      return '—';
    }
    var bill = s[name];
    var same = bill && bill.count === l.count && bill.amount === l.amount;
    return el('span', {className: 'ledger-total' + (same ? '' : ' ledger-differs'), title: same ? 'as in the bill' : 'not as in the bill'}, total(l));
  }

  function statementStatus(s) {
    return el('span', null, badge(s.status), s.error ? el('span', {className: 'mono error-code'}, s.error) : null);
  }

  /** A yyyy-MM-dd day input defaulting to yesterday in Beijing time (UTC+08:00). */
  function dayInput(id, value) {
    var input = el('input', {id: id, type: 'date', required: 'required'});
    if (value) {
      input.value = value;
    } else {
      var beijing = new Date(Date.now() + 8 * 3600 * 1000 - 24 * 3600 * 1000);
      input.value = beijing.toISOString().substring(0, 10);
    }
    return input;
  }

  /** Fetch now and upload, for one (channel, day): the two ways an operator makes a day's statement. */
  function statementActions(channel, billDate, gen, done) {
    var channelInput = el('input', {id: 's-channel', placeholder: 'channel', autocomplete: 'off', required: 'required'});
    channelInput.value = channel || '';
    var day = dayInput('s-day', billDate);
    var file = el('input', {id: 's-file', type: 'file'});
    var fetchButton = el('button', {type: 'button', id: 's-fetch', className: 'quiet'}, 'Fetch now');
    var uploadButton = el('button', {type: 'submit', id: 's-upload'}, 'Upload bill');
    var form = el(
      'form',
      {className: 'filters statement-actions', id: 'statement-actions'},
      el('label', {for: 's-channel'}, 'Channel'), channelInput,
      el('label', {for: 's-day'}, 'Bill date'), day,
      fetchButton,
      el('label', {for: 's-file'}, 'or a bill file'), file,
      uploadButton
    );
    function target() {
      var c = channelInput.value.trim();
      var d = day.value;
      if (!c || !d) {
        flash('Name a channel and a bill date.', 'error');
        return null;
      }
      return '/admin/statements/' + encodeURIComponent(c) + '/' + encodeURIComponent(d);
    }
    function finished(s, verb) {
      if (!current(gen)) {
        return;
      }
      fetchButton.disabled = false;
      uploadButton.disabled = false;
      var message = verb + ' ' + s.channel + ' ' + s.billDate + ': ' + s.status + (s.error ? ' (' + s.error + ')' : '') +
        ', ' + s.openDifferences + ' open difference' + (s.openDifferences === 1 ? '' : 's') + '.';
      var kind = s.status === 'ERROR' ? 'error' : 'ok';
      flash(message, kind);
      done(s, message, kind);
    }
    function refused(e) {
      fetchButton.disabled = false;
      uploadButton.disabled = false;
      failed(e);
    }
    fetchButton.addEventListener('click', function () {
      var path = target();
      if (!path) {
        return;
      }
      fetchButton.disabled = true;
      api('POST', path + '/fetch').then(function (s) {
        finished(s, 'Fetched');
      }, refused);
    });
    form.addEventListener('submit', function (ev) {
      ev.preventDefault();
      var path = target();
      if (!path) {
        return;
      }
      if (!file.files || !file.files.length) {
        flash('Choose the bill file exactly as the provider gave it (WeChat text or gzip, Alipay zip).', 'error');
        return;
      }
      uploadButton.disabled = true;
      api('POST', path, file.files[0], 'application/octet-stream').then(function (s) {
        finished(s, 'Uploaded');
      }, refused);
    });
    return form;
  }

  function statementsPage(view, query, gen) {
    var channel = query.get('channel') || '';
    var status = query.get('status') || '';
    var channelInput = el('input', {id: 'st-channel', placeholder: 'all channels', autocomplete: 'off'});
    channelInput.value = channel;
    var statusSelect = el('select', {id: 'st-status'}, el('option', {value: ''}, 'any status'));
    STATEMENT_STATUSES.forEach(function (s) {
      var o = el('option', {value: s}, s);
      if (s === status) {
        o.selected = true;
      }
      statusSelect.appendChild(o);
    });
    var filters = el(
      'form',
      {className: 'filters', id: 'statement-filters'},
      el('label', {for: 'st-channel'}, 'Channel'), channelInput,
      el('label', {for: 'st-status'}, 'Status'), statusSelect,
      el('button', {type: 'submit'}, 'Filter')
    );
    filters.addEventListener('submit', function (ev) {
      ev.preventDefault();
      var q = new URLSearchParams();
      if (channelInput.value.trim()) {
        q.set('channel', channelInput.value.trim());
      }
      if (statusSelect.value) {
        q.set('status', statusSelect.value);
      }
      var s = q.toString();
      location.hash = '#/statements' + (s ? '?' + s : '');
    });

    var rows = el('tbody', {id: 'statement-rows'});
    var more = el('button', {type: 'button', id: 'statements-more', hidden: true}, 'Load more');
    var listStatus = el('p', {className: 'muted', id: 'statements-status'}, 'Loading…');
    var differences = el('div', {id: 'open-differences'}, el('p', {className: 'muted'}, 'Loading…'));

    append(
      view,
      el('h1', null, 'Statements'),
      el(
        'p',
        {className: 'lede'},
        "Each statements-enabled channel's daily bill, compared with this service's orders and refunds " +
          '(GET /admin/statements). A bill never changes an order: a difference flags it, and a payment missing ' +
          'locally asks the provider once.'
      ),
      el('div', {className: 'card'}, el('h3', null, 'Make a day\u2019s statement'), statementActions(channel, null, gen, function (s, message, kind) {
        go(statementHref(s.channel, s.billDate), message, kind);
      })),
      filters,
      el(
        'table',
        {className: 'grid', id: 'statements-table'},
        el('thead', null, el('tr', null, ['Bill date', 'Channel', 'Status', 'Source', 'Payments (bill)', 'Payments (ledger)', 'Refunds (bill)', 'Refunds (ledger)', 'Not ours', 'Fees (¥)', 'Open differences', 'Attempts', 'Next attempt (UTC)'].map(function (h) {
          return el('th', null, h);
        }))),
        rows
      ),
      listStatus,
      more,
      el('h2', null, 'Open differences'),
      differences
    );

    function load(after) {
      more.disabled = true;
      var path = withParams('/admin/statements?limit=' + PAGE, { channel: channel, status: status, after: after });
      api('GET', path).then(function (page) {
        if (!current(gen)) {
          return;
        }
        page.items.forEach(function (s) {
          rows.appendChild(
            el(
              'tr',
              {className: 'statement-row', data: {channel: s.channel, billDate: s.billDate, status: s.status}},
              td(el('a', {href: statementHref(s.channel, s.billDate), className: 'statement-link'}, s.billDate)),
              td(s.channel),
              td(statementStatus(s)),
              td(badge(s.source, 'source')),
              td(total(s.payments)),
              td(ledgerTotal(s, 'payments')),
              td(total(s.refunds)),
              td(ledgerTotal(s, 'refunds')),
              td(total(s.foreign)),
              td(el('span', {className: 'mono'}, text(s.fees))),
              td(s.openDifferences ? badge(String(s.openDifferences), 'reason') : '0'),
              td(String(s.attempts)),
              td(time(s.nextAttemptAt))
            )
          );
        });
        listStatus.textContent = !rows.children.length
          ? 'No statement yet' + (channel ? ' on ' + channel : '') + (status ? ' with status ' + status : '') +
            ': the first is fetched after paynotify.statements.time on a statements-enabled channel, or upload a bill above.'
          : rows.children.length + ' shown' + (page.next ? '; more on the next page.' : '; that is all.');
        more.hidden = !page.next;
        more.disabled = false;
        more.onclick = function () {
          load(page.next);
        };
      }, failed);
    }
    load(null);

    var dpath = '/admin/statement-differences?status=OPEN&limit=' + PAGE + (channel ? '&channel=' + encodeURIComponent(channel) : '');
    api('GET', dpath).then(function (page) {
      if (!current(gen)) {
        return;
      }
      clear(differences);
      append(
        differences,
        page.items.length
          ? differencesTable(page.items, true, route)
          : el('p', {className: 'muted', id: 'no-open-differences'}, 'No open difference' + (channel ? ' on ' + channel : '') + '.'),
        page.next ? el('p', {className: 'muted'}, 'The newest ' + PAGE + ' are shown; filter by channel for others.') : null
      );
    }, failed);
  }

  function statementPage(view, channel, billDate, gen) {
    var base = '/admin/statements/' + encodeURIComponent(channel) + '/' + encodeURIComponent(billDate);
    var facts = el('dl', {className: 'facts', id: 'statement-facts'}, el('p', {className: 'muted'}, 'Loading…'));
    var diffs = el('div', {id: 'statement-differences'});
    append(
      view,
      el('p', {className: 'crumbs'}, el('a', {href: '#/statements?channel=' + encodeURIComponent(channel)}, '← Statements')),
      el('h1', null, channel, ' ', el('span', {className: 'muted'}, billDate)),
      facts,
      el('div', {className: 'card'}, el('h3', null, 'Fetch or upload this day again'), statementActions(channel, billDate, gen, function (s, message, kind) {
        if (s.channel === channel && s.billDate === billDate) {
          route();
        } else {
          go(statementHref(s.channel, s.billDate), message, kind);
        }
      })),
      el('h2', null, 'Differences'),
      diffs
    );
    function fact(name, value, id) {
      return el('div', {className: 'fact'}, el('dt', null, name), el('dd', id ? {id: id} : null, value));
    }
    api('GET', base).then(function (s) {
      if (!current(gen)) {
        return;
      }
      clear(facts);
      append(
        facts,
        fact('Status', statementStatus(s), 'statement-status'),
        fact('Source', badge(s.source, 'source')),
        fact('Fetched (UTC)', time(s.fetchedAt)),
        fact('Payments in the bill', total(s.payments), 'statement-payments'),
        fact('Payments in the ledger', ledgerTotal(s, 'payments'), 'statement-ledger-payments'),
        fact('Refunds in the bill', total(s.refunds), 'statement-refunds'),
        fact('Refunds in the ledger', ledgerTotal(s, 'refunds'), 'statement-ledger-refunds'),
        fact('Not this service\u2019s', total(s.foreign)),
        fact('Fees (¥)', el('span', {className: 'mono'}, text(s.fees))),
        fact('Open differences', String(s.openDifferences), 'statement-open'),
        fact('Attempts', String(s.attempts)),
        fact('Next attempt (UTC)', time(s.nextAttemptAt)),
        fact('File SHA-256', el('span', {className: 'mono'}, text(s.fileSha256)))
      );
      clear(diffs);
      append(
        diffs,
        (s.differences || []).length
          ? differencesTable(s.differences, false, route)
          : el('p', {className: 'muted', id: 'no-differences'}, 'No difference: the bill and the ledger agree for this day.')
      );
    }, function (e) {
      if (e instanceof ApiError && e.status === 404) {
        clear(facts);
        append(facts, el('p', {className: 'muted'}, 'No statement for ' + channel + ' on ' + billDate + ' yet: fetch or upload it below.'));
        return;
      }
      failed(e);
    });
  }

  /**
   * Differences with a link to each order and, for the open ones, a note and a Resolve button; after a resolution
   * the row shows it and then afterResolve runs (the pages reload, since the day's status and counts change).
   */
  function differencesTable(list, withDay, afterResolve) {
    var headers = ['Id'].concat(withDay ? ['Bill date · channel'] : []).concat(
      ['Kind', 'Order · refund · sub-merchant', 'Transaction', 'Bill', 'Ledger', 'Local state', 'Query', 'Status', 'Resolve']);
    return table(
      headers,
      list.map(function (d) {
        var row = el('tr', {className: 'difference-row', data: {id: d.id, kind: d.kind, status: d.status}});
        var statusCell = td();
        var action = td();
        function showStatus(x) {
          clear(statusCell);
          append(statusCell, badge(x.status, x.status === 'OPEN' ? 'reason' : 'b-succeeded'), x.note ? el('div', {className: 'small-text note'}, x.note) : null);
          row.dataset.status = x.status;
          clear(action);
          if (x.status === 'OPEN') {
            append(action, resolveForm(x, function (r) {
              showStatus(r);
              afterResolve(r);
            }));
          }
        }
        showStatus(d);
        var order = d.outTradeNo && d.kind !== 'UNKNOWN_ORDER'
          ? el('a', {href: orderHref(d.channel, d.outTradeNo), className: 'order-link'}, d.outTradeNo)
          : el('span', {className: 'mono'}, text(d.outTradeNo));
        append(
          row,
          td(el('span', {className: 'mono'}, String(d.id))),
          withDay ? td(el('a', {href: statementHref(d.channel, d.billDate), className: 'day-link'}, d.billDate), el('div', {className: 'small-text'}, d.channel)) : null,
          td(badge(d.kind, 'reason')),
          td(
            order,
            d.outRefundNo ? el('div', {className: 'small-text'}, 'refund ', el('span', {className: 'mono refund-no'}, d.outRefundNo)) : null,
            d.subMerchantId ? el('div', {className: 'small-text'}, 'sub-merchant ', el('span', {className: 'mono sub-merchant'}, d.subMerchantId)) : null
          ),
          td(el('span', {className: 'mono small-text'}, text(d.transactionId))),
          td(money(d.billAmount)),
          td(money(d.localAmount)),
          td(d.localState ? badge(d.localState) : '—'),
          td(text(d.queryResult)),
          statusCell,
          action
        );
        return row;
      }),
      'grid differences'
    );
  }

  function resolveForm(d, resolved) {
    var note = el('input', {className: 'resolve-note', placeholder: 'note (what was done)', maxlength: '500', autocomplete: 'off'});
    var button = el('button', {type: 'submit', className: 'small resolve'}, 'Resolve');
    var form = el('form', {className: 'resolve-form'}, note, button);
    form.addEventListener('submit', function (ev) {
      ev.preventDefault();
      var n = note.value.trim();
      if (!n) {
        flash('Say in a note how difference ' + d.id + ' was settled (1 to 500 characters).', 'error');
        return;
      }
      button.disabled = true;
      api('POST', '/admin/statement-differences/' + encodeURIComponent(d.id) + '/resolve', JSON.stringify({note: n})).then(function (x) {
        flash('Difference ' + x.id + ' resolved.', 'ok');
        resolved(x);
      }, function (e) {
        button.disabled = false;
        failed(e);
      });
    });
    return form;
  }

  // ---------------------------------------------------------------- start

  document.addEventListener('DOMContentLoaded', function () {
    $('login-form').addEventListener('submit', signIn);
    $('logout').addEventListener('click', function () {
      sessionStorage.removeItem(TOKEN_KEY);
      showLogin('Token forgotten.');
      $('flash').className = 'flash ok';
    });
    $('jump').addEventListener('submit', function (ev) {
      ev.preventDefault();
      var c = $('jump-channel').value.trim();
      var n = $('jump-no').value.trim();
      if (c && n) {
        location.hash = orderHref(c, n);
      }
    });
    window.addEventListener('hashchange', function () {
      flash(carried ? carried.message : null, carried ? carried.kind : null);
      carried = null;
      route();
    });
    route();
  });
})();
