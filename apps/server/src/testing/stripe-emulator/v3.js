/*
 * The Stripe emulator's stand-in for Stripe.js v3 (https://js.stripe.com/v3/): window.Stripe(key)
 * with the part of the documented API Remit uses. The Payment Element is a frame of the emulator's
 * origin; its fields create the PaymentMethod with the publishable key, and this script confirms the
 * intent with its client secret, as Stripe.js does. 3-D Secure opens in a modal frame.
 */
(function () {
  'use strict';
  var script = document.currentScript;
  var ORIGIN = new URL(script && script.src ? script.src : location.href).origin;

  function encode(obj, prefix, out) {
    out = out || [];
    Object.keys(obj).forEach(function (k) {
      var v = obj[k];
      var key = prefix ? prefix + '[' + k + ']' : k;
      if (v === undefined || v === null) return;
      if (typeof v === 'object') encode(v, key, out);
      else out.push(encodeURIComponent(key) + '=' + encodeURIComponent(String(v)));
    });
    return out.join('&');
  }
  function api(method, path, params) {
    var body = encode(params);
    var url = ORIGIN + path + (method === 'GET' ? '?' + body : '');
    var init =
      method === 'GET'
        ? { method: 'GET' }
        : { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: body };
    return fetch(url, init).then(
      function (res) {
        return res.json().then(function (json) {
          return res.ok ? { object: json } : { error: json.error };
        });
      },
      function () {
        return {
          error: {
            type: 'api_connection_error',
            message: 'We could not reach Stripe. Check your connection and try again.',
          },
        };
      },
    );
  }
  var intentId = function (secret) {
    return String(secret).split('_secret_')[0];
  };
  var kindOf = function (secret) {
    return String(secret).indexOf('seti_') === 0 ? 'setup_intent' : 'payment_intent';
  };

  function PaymentElement(elements, options) {
    this._elements = elements;
    this._options = options || {};
    this._handlers = {};
    this._frame = null;
    this._calls = {};
    this._seq = 0;
    this._listener = null;
  }
  PaymentElement.prototype.on = function (name, cb) {
    (this._handlers[name] = this._handlers[name] || []).push(cb);
    return this;
  };
  PaymentElement.prototype.off = function (name, cb) {
    this._handlers[name] = (this._handlers[name] || []).filter(function (h) {
      return h !== cb;
    });
    return this;
  };
  PaymentElement.prototype._emit = function (name, payload) {
    (this._handlers[name] || []).forEach(function (h) {
      h(payload);
    });
  };
  PaymentElement.prototype.mount = function (target) {
    var node = typeof target === 'string' ? document.querySelector(target) : target;
    if (!node) throw new Error('Stripe: the mount target ' + String(target) + ' was not found.');
    var self = this;
    var q = encode({
      key: this._elements._stripe._key,
      client_secret: this._elements._clientSecret,
      locale: this._elements._locale,
      layout: typeof this._options.layout === 'string' ? this._options.layout : undefined,
    });
    var frame = document.createElement('iframe');
    frame.src = ORIGIN + '/elements/payment?' + q;
    frame.title = 'Secure payment input frame';
    frame.name = '__privateStripeFrame' + Math.floor(Math.random() * 1e6);
    frame.allow = 'payment *';
    frame.style.border = '0';
    frame.style.width = '100%';
    frame.style.height = '240px';
    frame.style.display = 'block';
    this._frame = frame;
    this._listener = function (ev) {
      if (
        ev.origin !== ORIGIN ||
        ev.source !== frame.contentWindow ||
        !ev.data ||
        ev.data.source !== 'stripe-emulator-element'
      )
        return;
      var d = ev.data;
      if (d.type === 'height') frame.style.height = d.height + 'px';
      else if (d.type === 'ready') self._emit('ready', { elementType: 'payment' });
      else if (d.type === 'change')
        self._emit('change', {
          elementType: 'payment',
          complete: d.complete,
          empty: d.empty,
          collapsed: false,
          value: { type: d.value },
        });
      else if (d.type === 'focus' || d.type === 'blur') self._emit(d.type, { elementType: 'payment' });
      else if (d.type === 'result' && self._calls[d.id]) {
        self._calls[d.id](d.result);
        delete self._calls[d.id];
      }
    };
    window.addEventListener('message', this._listener);
    node.appendChild(frame);
    return this;
  };
  PaymentElement.prototype._ask = function (type, extra) {
    var self = this;
    if (!this._frame || !this._frame.contentWindow)
      return Promise.resolve({ error: { type: 'validation_error', message: 'The Payment Element is not mounted.' } });
    var id = ++this._seq;
    return new Promise(function (resolve) {
      self._calls[id] = resolve;
      self._frame.contentWindow.postMessage(
        Object.assign({ source: 'stripe-emulator-parent', type: type, id: id }, extra || {}),
        ORIGIN,
      );
    });
  };
  PaymentElement.prototype.unmount = function () {
    if (this._listener) window.removeEventListener('message', this._listener);
    if (this._frame && this._frame.parentNode) this._frame.parentNode.removeChild(this._frame);
    this._frame = null;
    this._listener = null;
  };
  PaymentElement.prototype.destroy = function () {
    this.unmount();
    if (this._elements._payment === this) this._elements._payment = null;
  };
  PaymentElement.prototype.update = function (options) {
    Object.assign(this._options, options || {});
  };
  PaymentElement.prototype.focus = function () {
    if (this._frame) this._frame.focus();
  };
  PaymentElement.prototype.blur = function () {};
  PaymentElement.prototype.clear = function () {
    this._ask('clear');
  };
  PaymentElement.prototype.collapse = function () {};

  function Elements(stripe, options) {
    this._stripe = stripe;
    this._clientSecret = options.clientSecret;
    this._locale = options.locale;
    this._appearance = options.appearance;
    this._payment = null;
  }
  Elements.prototype.create = function (type, options) {
    if (type !== 'payment')
      throw new Error('Stripe emulator: only the Payment Element ("payment") is emulated, not "' + type + '".');
    if (this._payment) throw new Error('Stripe: Can only create one Element of type payment.');
    this._payment = new PaymentElement(this, options);
    return this._payment;
  };
  Elements.prototype.getElement = function (type) {
    return type === 'payment' ? this._payment : null;
  };
  Elements.prototype.update = function (options) {
    if (options && options.locale) this._locale = options.locale;
  };
  Elements.prototype.fetchUpdates = function () {
    return Promise.resolve({});
  };
  Elements.prototype.submit = function () {
    if (!this._payment)
      return Promise.resolve({ error: { type: 'validation_error', message: 'Mount the Payment Element first.' } });
    return this._payment._ask('submit');
  };

  function Stripe(key, options) {
    if (!(this instanceof Stripe)) return new Stripe(key, options);
    if (typeof key !== 'string' || key.indexOf('pk_') !== 0)
      throw new Error('Stripe: Invalid API Key provided (a publishable key, pk_…, is needed).');
    this._key = key;
  }
  Stripe.prototype.elements = function (options) {
    return new Elements(this, options || {});
  };

  Stripe.prototype._retrieve = function (secret) {
    var kind = kindOf(secret);
    return api('GET', '/v1/' + kind + 's/' + intentId(secret), { key: this._key, client_secret: secret });
  };
  Stripe.prototype.retrievePaymentIntent = function (secret) {
    return this._retrieve(secret).then(function (r) {
      return r.error ? { error: r.error } : { paymentIntent: r.object };
    });
  };
  Stripe.prototype.retrieveSetupIntent = function (secret) {
    return this._retrieve(secret).then(function (r) {
      return r.error ? { error: r.error } : { setupIntent: r.object };
    });
  };

  /** Stripe's 3-D Secure window, as Stripe.js shows it: a modal frame over the page. */
  function challenge(url) {
    return new Promise(function (resolve) {
      var opener = document.activeElement;
      var overlay = document.createElement('div');
      overlay.setAttribute('role', 'dialog');
      overlay.setAttribute('aria-modal', 'true');
      overlay.setAttribute('aria-label', '3D Secure authentication');
      var s = overlay.style;
      s.position = 'fixed';
      s.top = '0';
      s.left = '0';
      s.right = '0';
      s.bottom = '0';
      s.zIndex = '2147483647';
      s.background = 'rgba(0,0,0,0.5)';
      s.display = 'flex';
      s.alignItems = 'center';
      s.justifyContent = 'center';
      var frame = document.createElement('iframe');
      frame.src = url;
      frame.title = '3D Secure authentication';
      frame.name = '__privateStripe3DSFrame';
      var f = frame.style;
      f.border = '0';
      f.background = '#fff';
      f.width = '420px';
      f.maxWidth = '95vw';
      f.height = '400px';
      f.borderRadius = '8px';
      overlay.appendChild(frame);
      function done(ev) {
        if (
          ev.origin !== ORIGIN ||
          ev.source !== frame.contentWindow ||
          !ev.data ||
          ev.data.type !== 'three_d_secure_done'
        )
          return;
        window.removeEventListener('message', done);
        overlay.parentNode.removeChild(overlay);
        if (opener && opener.focus) opener.focus();
        resolve();
      }
      window.addEventListener('message', done);
      document.body.appendChild(overlay);
      frame.focus();
    });
  }

  function redirectBack(returnUrl, kind, intent) {
    var back = new URL(returnUrl, location.href);
    back.searchParams.set(kind, intent.id);
    back.searchParams.set(kind + '_client_secret', intent.client_secret);
    back.searchParams.set('redirect_status', 'succeeded');
    location.assign(back.toString());
    return new Promise(function () {});
  }

  Stripe.prototype._confirm = function (kind, opts) {
    var self = this;
    opts = opts || {};
    var elements = opts.elements;
    var secret = (elements && elements._clientSecret) || opts.clientSecret;
    var confirmParams = opts.confirmParams || {};
    var redirect = opts.redirect || 'always';
    var name = kind === 'payment_intent' ? 'paymentIntent' : 'setupIntent';
    if (!elements || !elements._payment)
      return Promise.resolve({
        error: { type: 'invalid_request_error', message: 'Pass `elements` with a mounted Payment Element.' },
      });
    if (redirect === 'always' && !confirmParams.return_url)
      return Promise.resolve({
        error: {
          type: 'invalid_request_error',
          message: 'stripe.confirm…: confirmParams.return_url is required with redirect "always".',
        },
      });
    var path = '/v1/' + kind + 's/' + intentId(secret);
    var settle = function (intent) {
      var error = kind === 'payment_intent' ? intent.last_payment_error : intent.last_setup_error;
      if (intent.status === 'requires_payment_method' && error) {
        var e = Object.assign({}, error);
        e[kind] = intent;
        return { error: e };
      }
      if (redirect === 'always' && intent.status !== 'requires_action')
        return redirectBack(confirmParams.return_url, kind, intent);
      var out = {};
      out[name] = intent;
      return out;
    };
    return elements._payment
      ._ask('create_payment_method', {
        billing_details: confirmParams.payment_method_data && confirmParams.payment_method_data.billing_details,
      })
      .then(function (made) {
        if (made.error) return { error: made.error };
        var params = {
          key: self._key,
          client_secret: secret,
          payment_method: made.payment_method,
          return_url: confirmParams.return_url,
          use_stripe_sdk: 'true',
        };
        if (made.type === 'us_bank_account')
          params.mandate_data = { customer_acceptance: { type: 'online', online: { infer_from_client: 'true' } } };
        if (kind === 'payment_intent' && confirmParams.setup_future_usage)
          params.setup_future_usage = confirmParams.setup_future_usage;
        return api('POST', path + '/confirm', params).then(function (r) {
          if (r.error) return { error: r.error };
          var intent = r.object;
          var action = intent.next_action;
          if (intent.status === 'requires_action' && action && action.type === 'use_stripe_sdk') {
            return challenge(action.use_stripe_sdk.stripe_js).then(function () {
              return self._retrieve(secret).then(function (again) {
                return again.error ? { error: again.error } : settle(again.object);
              });
            });
          }
          if (intent.status === 'requires_action' && action && action.type === 'redirect_to_url') {
            location.assign(action.redirect_to_url.url);
            return new Promise(function () {});
          }
          return settle(intent);
        });
      });
  };
  Stripe.prototype.confirmPayment = function (opts) {
    return this._confirm('payment_intent', opts);
  };
  Stripe.prototype.confirmSetup = function (opts) {
    return this._confirm('setup_intent', opts);
  };

  Stripe.version = 3;
  window.Stripe = Stripe;
})();
