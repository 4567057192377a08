/*
 * The Payment Element's frame (emulator's origin): a Card tab and, when the intent allows it, a
 * "US bank account" tab. Card data stays here: the frame creates the PaymentMethod with the
 * publishable key and hands the page only its id.
 */
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('data').textContent);
  // Stripe.js's `locale`: a few languages' labels and messages (others: English), as Stripe translates its fields.
  var WORDS = {
    es: {
      Card: 'Tarjeta',
      'US bank account': 'Cuenta bancaria de EE. UU.',
      'Payment method': 'Método de pago',
      'Card number': 'Número de tarjeta',
      'Expiration date': 'Fecha de vencimiento',
      'Security code': 'Código de seguridad',
      'ZIP code': 'Código postal',
      'Full name': 'Nombre completo',
      'Routing number': 'Número de ruta',
      'Account number': 'Número de cuenta',
      'Confirm account number': 'Confirma el número de cuenta',
      'Your card number is incomplete.': 'El número de tu tarjeta está incompleto.',
      'Your card number is invalid.': 'El número de tu tarjeta no es válido.',
      "Your card's expiration date is incomplete.": 'La fecha de vencimiento de tu tarjeta está incompleta.',
      "Your card's expiration year is in the past.": 'El año de vencimiento de tu tarjeta ya pasó.',
      "Your card's expiration month is invalid.": 'El mes de vencimiento de tu tarjeta no es válido.',
      "Your card's security code is incomplete.": 'El código de seguridad de tu tarjeta está incompleto.',
      'Your ZIP is incomplete.': 'Tu código postal está incompleto.',
    },
    fr: {
      Card: 'Carte',
      'US bank account': 'Compte bancaire américain',
      'Payment method': 'Moyen de paiement',
      'Card number': 'Numéro de carte',
      'Expiration date': "Date d'expiration",
      'Security code': 'Code de sécurité',
      'ZIP code': 'Code postal',
      'Full name': 'Nom complet',
      'Routing number': "Numéro d'acheminement",
      'Account number': 'Numéro de compte',
      'Confirm account number': 'Confirmez le numéro de compte',
      'Your card number is incomplete.': 'Le numéro de votre carte est incomplet.',
      'Your card number is invalid.': "Le numéro de votre carte n'est pas valide.",
      "Your card's expiration date is incomplete.": "La date d'expiration de votre carte est incomplète.",
      "Your card's expiration year is in the past.": "L'année d'expiration de votre carte est déjà passée.",
      "Your card's expiration month is invalid.": "Le mois d'expiration de votre carte n'est pas valide.",
      "Your card's security code is incomplete.": 'Le code de sécurité de votre carte est incomplet.',
      'Your ZIP is incomplete.': 'Votre code postal est incomplet.',
    },
  };
  var lang = String(data.locale === 'auto' || !data.locale ? navigator.language : data.locale).split('-')[0];
  var words = WORDS[lang] || {};
  if (WORDS[lang]) document.documentElement.lang = lang;
  var t = function (s) {
    return words[s] || s;
  };
  var root = document.getElementById('root');
  var parentOrigin = '*';
  var uid = 0;
  var state = { tab: data.types.indexOf('card') >= 0 ? 'card' : 'us_bank_account', bank: null, manual: false };

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === 'text') node.textContent = attrs[k];
      else if (k === 'on')
        Object.keys(attrs.on).forEach(function (ev) {
          node.addEventListener(ev, attrs.on[ev]);
        });
      else node.setAttribute(k, attrs[k]);
    });
    (children || []).forEach(function (c) {
      if (c) node.appendChild(c);
    });
    return node;
  }
  function post(msg) {
    msg.source = 'stripe-emulator-element';
    parent.postMessage(msg, parentOrigin);
  }
  function field(label, attrs) {
    var id = 'f' + ++uid;
    var input = el('input', Object.assign({ id: id, 'aria-describedby': id + '-err' }, attrs));
    var err = el('p', { id: id + '-err', class: 'error', 'aria-live': 'polite' });
    input.addEventListener('input', changed);
    input.addEventListener('focus', function () {
      post({ type: 'focus' });
    });
    input.addEventListener('blur', function () {
      post({ type: 'blur' });
    });
    var wrap = el('div', {}, [el('label', { for: id, text: t(label) }), input, err]);
    return { wrap: wrap, input: input, err: err };
  }

  // Card
  var number = field('Card number', {
    inputmode: 'numeric',
    autocomplete: 'cc-number',
    placeholder: '1234 1234 1234 1234',
  });
  var expiry = field('Expiration date', { inputmode: 'numeric', autocomplete: 'cc-exp', placeholder: 'MM / YY' });
  var cvc = field('Security code', { inputmode: 'numeric', autocomplete: 'cc-csc', placeholder: 'CVC' });
  var zip = field('ZIP code', { inputmode: 'numeric', autocomplete: 'postal-code', placeholder: '12345' });
  var cardPanel = el('div', { id: 'panel-card', role: 'tabpanel', 'aria-labelledby': 'tab-card' }, [
    number.wrap,
    el('div', { class: 'row' }, [expiry.wrap, cvc.wrap]),
    zip.wrap,
  ]);

  // US bank account
  var holder = field('Full name', { autocomplete: 'name' });
  var routing = field('Routing number', { inputmode: 'numeric', autocomplete: 'off' });
  var account = field('Account number', { inputmode: 'numeric', autocomplete: 'off' });
  var account2 = field('Confirm account number', { inputmode: 'numeric', autocomplete: 'off' });
  var linkedBox = el('div', { class: 'linked', hidden: '', role: 'status' });
  var manualBox = el('div', { hidden: '' }, [
    routing.wrap,
    account.wrap,
    account2.wrap,
    el('p', {
      class: 'note',
      text: 'Microdeposits: we will send a small deposit to this account in 1–2 business days; you will be asked to confirm it to finish the payment.',
    }),
  ]);
  var bankError = el('p', { class: 'error', role: 'alert' });
  var instant = el('button', {
    type: 'button',
    class: 'link',
    text: 'Test Institution — instant verification',
    on: { click: linkBank },
  });
  var manual = el('button', {
    type: 'button',
    class: 'link',
    text: 'Enter bank details manually instead',
    on: {
      click: function () {
        state.manual = true;
        state.bank = null;
        linkedBox.hidden = true;
        manualBox.hidden = false;
        changed();
        routing.input.focus();
      },
    },
  });
  var mandate = el('p', {
    class: 'mandate',
    text:
      'By providing your payment information and confirming this ' +
      (data.kind === 'payment_intent' ? 'payment' : 'mandate') +
      ', you authorise ' +
      data.business +
      ' and Stripe, our payment service provider, to debit your bank account for ' +
      (data.kind === 'payment_intent' ? 'this payment' : 'future payments') +
      ' in accordance with these terms. You may cancel this authorisation at any time by contacting ' +
      data.business +
      ' with 30 days notice.',
  });
  var bankPanel = el('div', { id: 'panel-bank', role: 'tabpanel', 'aria-labelledby': 'tab-bank', hidden: '' }, [
    holder.wrap,
    instant,
    linkedBox,
    manual,
    manualBox,
    bankError,
    mandate,
  ]);

  function tab(id, label, key, panel) {
    return el('button', {
      type: 'button',
      role: 'tab',
      id: id,
      'aria-controls': panel,
      text: t(label),
      on: {
        click: function () {
          select(key);
        },
      },
    });
  }
  var tabs = null;
  if (data.types.length > 1) {
    tabs = el('div', { role: 'tablist', 'aria-label': t('Payment method') }, [
      tab('tab-card', 'Card', 'card', 'panel-card'),
      tab('tab-bank', 'US bank account', 'us_bank_account', 'panel-bank'),
    ]);
    root.appendChild(tabs);
  } else {
    cardPanel.removeAttribute('role');
    cardPanel.removeAttribute('aria-labelledby');
    bankPanel.removeAttribute('role');
    bankPanel.removeAttribute('aria-labelledby');
  }
  root.appendChild(cardPanel);
  root.appendChild(bankPanel);
  function select(key) {
    state.tab = key;
    cardPanel.hidden = key !== 'card';
    bankPanel.hidden = key !== 'us_bank_account';
    if (tabs)
      Array.prototype.forEach.call(tabs.children, function (t) {
        var on = (t.id === 'tab-card') === (key === 'card');
        t.setAttribute('aria-selected', String(on));
        t.tabIndex = on ? 0 : -1;
      });
    changed();
  }

  var digits = function (s) {
    return String(s).replace(/\D/g, '');
  };
  function luhn(n) {
    var sum = 0;
    for (var i = 0; i < n.length; i++) {
      var d = Number(n[n.length - 1 - i]);
      if (i % 2 === 1) {
        d *= 2;
        if (d > 9) d -= 9;
      }
      sum += d;
    }
    return n.length >= 12 && sum % 10 === 0;
  }
  function cardErrors() {
    var out = [];
    var n = digits(number.input.value);
    if (!n) out.push([number, 'incomplete_number', 'Your card number is incomplete.']);
    else if (!luhn(n)) out.push([number, 'invalid_number', 'Your card number is invalid.']);
    var e = expiry.input.value.match(/^\s*(\d{1,2})\s*\/?\s*(\d{2})\s*$/);
    if (!e) out.push([expiry, 'incomplete_expiry', "Your card's expiration date is incomplete."]);
    else {
      var month = Number(e[1]);
      var year = 2000 + Number(e[2]);
      var now = new Date();
      if (month < 1 || month > 12)
        out.push([expiry, 'invalid_expiry_month', "Your card's expiration month is invalid."]);
      else if (year < now.getFullYear() || (year === now.getFullYear() && month < now.getMonth() + 1))
        out.push([expiry, 'invalid_expiry_year_past', "Your card's expiration year is in the past."]);
    }
    if (!/^\d{3,4}$/.test(cvc.input.value.trim()))
      out.push([cvc, 'incomplete_cvc', "Your card's security code is incomplete."]);
    if (!/^\d{5}$/.test(zip.input.value.trim())) out.push([zip, 'incomplete_zip', 'Your ZIP is incomplete.']);
    return out;
  }
  function bankErrors() {
    var out = [];
    if (!holder.input.value.trim()) out.push([holder, 'incomplete_name', 'Your full name is incomplete.']);
    if (state.bank) return out;
    if (!state.manual) {
      out.push([null, 'incomplete_bank_account', 'Select your bank, or enter your bank details manually.']);
      return out;
    }
    if (!/^\d{9}$/.test(digits(routing.input.value)))
      out.push([routing, 'invalid_routing_number', 'Your routing number is invalid.']);
    if (!/^\d{4,17}$/.test(digits(account.input.value)))
      out.push([account, 'invalid_account_number', 'Your account number is invalid.']);
    else if (digits(account.input.value) !== digits(account2.input.value))
      out.push([account2, 'account_number_mismatch', "Your account numbers don't match."]);
    return out;
  }
  var errorsNow = function () {
    return state.tab === 'card' ? cardErrors() : bankErrors();
  };
  function isEmpty() {
    return state.tab === 'card'
      ? !number.input.value && !expiry.input.value && !cvc.input.value && !zip.input.value
      : !holder.input.value && !state.bank && !state.manual;
  }
  function changed() {
    [number, expiry, cvc, zip, holder, routing, account, account2].forEach(function (f) {
      f.err.textContent = '';
      f.input.removeAttribute('aria-invalid');
    });
    bankError.textContent = '';
    post({ type: 'change', complete: errorsNow().length === 0, empty: isEmpty(), value: state.tab });
  }
  function showErrors(list) {
    list.forEach(function (x) {
      if (x[0]) {
        x[0].err.textContent = t(x[2]);
        x[0].input.setAttribute('aria-invalid', 'true');
      } else bankError.textContent = t(x[2]);
    });
    if (list[0] && list[0][0]) list[0][0].input.focus();
    return list.length ? { error: { type: 'validation_error', code: list[0][1], message: t(list[0][2]) } } : {};
  }

  function api(path, params) {
    params.key = data.publishableKey;
    return fetch(data.apiUrl + path, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(params).toString(),
    }).then(function (res) {
      return res.json().then(function (json) {
        return res.ok ? json : { error: json.error };
      });
    });
  }
  function linkBank() {
    var id = data.clientSecret.split('_secret_')[0];
    void api('/v1/' + data.kind + 's/' + id + '/link_account_sessions', { client_secret: data.clientSecret }).then(
      function (session) {
        if (session.error) {
          bankError.textContent = session.error.message;
          return;
        }
        var acct = session.accounts.data[0];
        state.bank = acct;
        state.manual = false;
        manualBox.hidden = true;
        linkedBox.hidden = false;
        linkedBox.textContent = acct.institution_name + ' checking ••••' + acct.last4 + ' — verified';
        changed();
      },
    );
  }
  function createPaymentMethod() {
    var p = {};
    if (state.tab === 'card') {
      var e = expiry.input.value.match(/(\d{1,2})\s*\/?\s*(\d{2})/);
      p = {
        type: 'card',
        'card[number]': digits(number.input.value),
        'card[exp_month]': e[1],
        'card[exp_year]': '20' + e[2],
        'card[cvc]': cvc.input.value.trim(),
        'billing_details[address][postal_code]': zip.input.value.trim(),
      };
    } else {
      p = {
        type: 'us_bank_account',
        'billing_details[name]': holder.input.value.trim(),
        'us_bank_account[account_holder_type]': 'individual',
      };
      if (state.bank) p['us_bank_account[financial_connections_account]'] = state.bank.id;
      else {
        p['us_bank_account[routing_number]'] = digits(routing.input.value);
        p['us_bank_account[account_number]'] = digits(account.input.value);
      }
    }
    return api('/v1/payment_methods', p).then(
      function (pm) {
        return pm.error ? { error: pm.error } : { payment_method: pm.id, type: pm.type };
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

  window.addEventListener('message', function (ev) {
    if (ev.source !== parent || !ev.data || ev.data.source !== 'stripe-emulator-parent') return;
    parentOrigin = ev.origin;
    var d = ev.data;
    var reply = function (result) {
      post({ type: 'result', id: d.id, result: result });
    };
    if (d.type === 'submit') reply(showErrors(errorsNow()));
    else if (d.type === 'clear') {
      [number, expiry, cvc, zip, holder, routing, account, account2].forEach(function (f) {
        f.input.value = '';
      });
      state.bank = null;
      changed();
    } else if (d.type === 'create_payment_method') {
      var invalid = showErrors(errorsNow());
      if (invalid.error) reply(invalid);
      else void createPaymentMethod().then(reply);
    }
  });

  select(state.tab);
  var size = function () {
    post({ type: 'height', height: Math.ceil(document.documentElement.getBoundingClientRect().height) + 4 });
  };
  new ResizeObserver(size).observe(document.body);
  size();
  post({ type: 'ready' });
})();
