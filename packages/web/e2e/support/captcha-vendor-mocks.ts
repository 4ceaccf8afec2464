/**
 * Stand-ins for the five vendors' browser scripts, each exposing the global its real script does
 * with the same call shapes. `window.__vendorMode` decides the user's outcome: 'pass', 'fail',
 * 'close', 'error' or 'hold' (nothing happens until the test acts). Each records the configuration
 * it was started with in `window.__vendorConfig` (Tencent's: its options).
 */
export const VENDOR_MOCKS = {
  GEETEST: `
window.initGeetest = function (config, ready) {
  window.__vendorConfig = config;
  var h = {};
  var obj = {
    appendTo: function (el) {
      var w = document.createElement('div');
      w.className = 'geetest_mock';
      w.style.width = config.width;
      w.textContent = 'geetest ' + (config.offline ? 'offline' : 'online');
      el.appendChild(w);
      setTimeout(run, 30);
      return obj;
    },
    onReady: function (f) { h.ready = f; return obj; },
    onSuccess: function (f) { h.success = f; return obj; },
    onError: function (f) { h.error = f; return obj; },
    onClose: function (f) { h.close = f; return obj; },
    getValidate: function () {
      var ok = window.__vendorMode === 'pass';
      return { geetest_challenge: config.challenge, geetest_validate: 'v', geetest_seccode: (ok ? 'pass' : 'fail') + '|jordan' };
    },
    destroy: function () { window.__destroyed = (window.__destroyed || 0) + 1; },
  };
  function run() {
    var m = window.__vendorMode;
    if (m === 'hold') return;
    if (m === 'error') return h.error({ error_code: 'x' });
    if (m === 'close') return h.close();
    h.success();
  }
  ready(obj);
};`,
  TENCENT: `
window.TencentCaptcha = function (appid, callback, options) {
  window.__vendorConfig = options;
  this.show = function () {
    setTimeout(function () {
      var m = window.__vendorMode;
      if (m === 'pass') callback({ ret: 0, ticket: 'pass-tencent', randstr: '@abc', appid: appid });
      else if (m === 'fail') callback({ ret: 0, ticket: 'fail-tencent', randstr: '@abc', appid: appid });
      else if (m === 'close') callback({ ret: 2 });
      else if (m === 'error') callback({ ret: 1, errorCode: 1001 });
    }, 30);
  };
  this.destroy = function () { window.__destroyed = (window.__destroyed || 0) + 1; };
};`,
  NETEASE: `
window.initNECaptcha = function (config, onload, onerror) {
  window.__vendorConfig = config;
  if (!config.captchaId || !config.element) return onerror(new Error('bad config'));
  onload({
    popUp: function () {
      setTimeout(function () {
        var m = window.__vendorMode;
        if (m === 'pass') config.onVerify(null, { validate: 'pass-netease' });
        else if (m === 'fail') config.onVerify(null, { validate: 'fail-netease' });
        else if (m === 'close') config.onClose();
        else if (m === 'error') onerror(new Error('netease down'));
      }, 30);
    },
    destroy: function () { window.__destroyed = (window.__destroyed || 0) + 1; },
  });
};`,
  NEXTDATA: `
window.initSMCaptcha = function (config, ready) {
  window.__vendorConfig = config;
  var h = {};
  var obj = {
    onReady: function (f) { h.ready = f; setTimeout(f, 10); },
    onSuccess: function (f) { h.success = f; },
    onError: function (f) { h.error = f; },
    onClose: function (f) { h.close = f; },
    verify: function () {
      setTimeout(function () {
        var m = window.__vendorMode;
        if (m === 'pass') h.success({ pass: true, rid: 'pass-rid-' + config.organization });
        else if (m === 'fail') h.success({ pass: false, rid: 'fail-rid' });
        else if (m === 'close') h.close();
        else if (m === 'error') h.error('network', { code: 1902 });
      }, 30);
    },
    destroy: function () { window.__destroyed = (window.__destroyed || 0) + 1; },
  };
  ready(obj);
};`,
  ALIYUN: `
window.initAliyunCaptcha = function (config) {
  window.__vendorConfig = config;
  var prefix = (window.AliyunCaptchaConfig || {}).prefix;
  config.getInstance({ destroy: function () { window.__destroyed = (window.__destroyed || 0) + 1; } });
  document.querySelector(config.button).addEventListener('click', function () {
    setTimeout(function () {
      var m = window.__vendorMode;
      if (m === 'close') return config.onClose();
      if (m === 'error') return config.onError({ code: 'NETWORK' });
      if (m === 'hold') return;
      Promise.resolve(config.captchaVerifyCallback((m === 'pass' ? 'pass-' : 'fail-') + prefix)).then(function (r) {
        if (r.captchaResult) config.onBizResultCallback(r.bizResult);
      });
    }, 30);
  });
};`,
} as const;

export type MockedVendor = keyof typeof VENDOR_MOCKS;
