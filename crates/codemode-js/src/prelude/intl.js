// Intl for en-US (ECMA-402 as node 20 has it): the objects, the locale lists and the option
// reading, in spec order (getters and conversions run here, in the machine's loop); the
// formatting is native (`builtins/intl.rs`: `formatNumber`, `formatDate`), over the
// internal record made here. Another locale, time zone, calendar or numbering system is
// formatted as en-US, UTC, gregory, latn, with a warning (`intlWarn`, once per run and name).
{
  const RangeErr = RangeError;
  const wmGet = WeakMap.prototype.get;
  const wmSet = WeakMap.prototype.set;
  const upper = String.prototype.toUpperCase;
  const reExec = RegExp.prototype.exec;
  const create = Object.create;
  const freeze = Object.freeze;
  const ObjectOf = Object;
  const floor = Math.floor;
  const now = Date.now;
  const fmtNumber = I.formatNumber;
  const fmtDate = I.formatDate;
  const canon = I.intlLocale;
  const warn = I.intlWarn;
  const dateValue = I.dateValue;
  const numberThis = I.numberThis;
  const NF = I.NumberFormat;
  const DTF = I.DateTimeFormat;
  const numberSlots = new WeakMap();
  const dateSlots = new WeakMap();

  const rangeError = (m) => {
    throw new RangeErr(m);
  };
  function has(list, v) {
    for (let i = 0; i < list.length; i++) if (list[i] === v) return true;
    return false;
  }
  function push(list, v) {
    list[list.length] = v;
  }
  function unnamed(f) {
    return f;
  }
  // CoerceOptionsToObject.
  function optionsObject(options, where) {
    if (options === undefined) return create(null);
    if (options === null) typeError(where + " called on null or undefined");
    return ObjectOf(options);
  }
  // GetOption (§9.2.12): `values` a list, "boolean", or undefined (any string).
  function getOption(o, prop, values, dflt, where) {
    let v = o[prop];
    if (v === undefined) return dflt;
    if (values === "boolean") return !!v;
    v = toStr(v);
    if (values !== undefined && !has(values, v)) {
      rangeError("Value " + v + " out of range for " + where + " options property " + prop);
    }
    return v;
  }
  // DefaultNumberOption (§9.2.15).
  function numberOption(v, min, max, dflt, prop) {
    if (v === undefined) return dflt;
    v = +v;
    if (v !== v || v < min || v > max) rangeError(prop + " value is out of range.");
    return floor(v);
  }

  // CanonicalizeLocaleList (§9.2.1).
  function localeList(locales) {
    if (locales === undefined) return [];
    if (typeof locales === "string") return [canon(locales)];
    if (locales === null) typeError("Cannot convert undefined or null to object");
    const O = ObjectOf(locales);
    const len = toLength(O);
    const seen = [];
    for (let k = 0; k < len; k++) {
      if (k in O) {
        const v = O[k];
        if (typeof v !== "string" && (typeof v !== "object" || v === null)) {
          typeError("Language ID should be string or object.");
        }
        const tag = canon(v);
        if (!has(seen, tag)) push(seen, tag);
      }
    }
    return seen;
  }
  // The locale without its Unicode extension (`-u-...`).
  function baseName(tag) {
    const m = call(reExec, /^(.*?)(?:-[a-wyz0-9](?:-[a-z0-9]{2,8})+)*(?:-x(?:-[a-z0-9]{1,8})+)?$/, tag);
    return m === null ? tag : m[1];
  }
  function available(tag) {
    const b = baseName(tag);
    return b === "en" || b === "en-US";
  }
  // The one locale there is; what node would use instead is named in a warning.
  function resolveLocale(list) {
    if (list.length === 0) return "en-US";
    const b = baseName(list[0]);
    if (b === "en" || b === "en-US") return b;
    warn('Intl: locale "' + list[0] + '" is not available; formatted as en-US');
    return "en-US";
  }
  function numberingSystem(o, where) {
    const ns = getOption(o, "numberingSystem", undefined, undefined, where);
    if (ns !== undefined && ns !== "latn") {
      if (call(reExec, /^[a-zA-Z0-9]{3,8}(-[a-zA-Z0-9]{3,8})*$/, ns) === null) rangeError("Invalid numberingSystem : " + ns);
      warn('Intl: numbering system "' + ns + '" is not available; formatted with latn digits');
    }
  }

  // ----- numbers ----------------------------------------------------------------------------
  const ZERO_DIGIT_CURRENCIES = ["JPY", "KRW", "VND", "CLP", "ISK", "UGX", "XAF", "XOF", "PYG", "RWF"];
  const THREE_DIGIT_CURRENCIES = ["BHD", "KWD", "OMR", "JOD", "TND", "IQD", "LYD"];
  // InitializeNumberFormat (§15.1.2): the internal record.
  function resolveNumber(locales, options, where) {
    const requested = localeList(locales);
    const o = optionsObject(options, where);
    getOption(o, "localeMatcher", ["lookup", "best fit"], "best fit", where);
    numberingSystem(o, where);
    const r = create(null);
    r.locale = resolveLocale(requested);
    const style = getOption(o, "style", ["decimal", "percent", "currency", "unit"], "decimal", where);
    let currency = getOption(o, "currency", undefined, undefined, where);
    if (currency !== undefined && call(reExec, /^[A-Za-z]{3}$/, currency) === null) {
      rangeError("Invalid currency code : " + currency);
    }
    const currencyDisplay = getOption(o, "currencyDisplay", ["code", "symbol", "narrowSymbol", "name"], "symbol", where);
    const currencySign = getOption(o, "currencySign", ["standard", "accounting"], "standard", where);
    const unit = getOption(o, "unit", undefined, undefined, where);
    getOption(o, "unitDisplay", ["short", "narrow", "long"], "short", where);
    if (style === "currency") {
      if (currency === undefined) typeError("Currency code is required with currency style.");
      currency = call(upper, currency);
    }
    if (style === "unit") {
      if (unit === undefined) typeError("Invalid unit argument for " + where + "() ''");
      rangeError('style "unit" is not supported here; format the number and append the unit ("' + unit + '") yourself');
    }
    r.style = style;
    if (style === "currency") {
      r.currency = currency;
      r.currencyDisplay = currencyDisplay;
      r.currencySign = currencySign;
    }
    const notation = getOption(o, "notation", ["standard", "scientific", "engineering", "compact"], "standard", where);
    let mnfdDefault = 0;
    let mxfdDefault = style === "percent" ? 0 : 3;
    if (style === "currency" && notation === "standard") {
      const cd = has(ZERO_DIGIT_CURRENCIES, currency) ? 0 : has(THREE_DIGIT_CURRENCIES, currency) ? 3 : 2;
      mnfdDefault = cd;
      mxfdDefault = cd;
    }
    // SetNumberFormatDigitOptions (§15.1.3).
    const mnid = numberOption(o.minimumIntegerDigits, 1, 21, 1, "minimumIntegerDigits");
    let mnfd = o.minimumFractionDigits;
    let mxfd = o.maximumFractionDigits;
    let mnsd = o.minimumSignificantDigits;
    let mxsd = o.maximumSignificantDigits;
    r.minimumIntegerDigits = mnid;
    const increment = numberOption(o.roundingIncrement, 1, 5000, 1, "roundingIncrement");
    if (!has([1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000], increment)) {
      rangeError("roundingIncrement value is out of range.");
    }
    const roundingMode = getOption(o, "roundingMode",
      ["ceil", "floor", "expand", "trunc", "halfCeil", "halfFloor", "halfExpand", "halfTrunc", "halfEven"], "halfExpand", where);
    const roundingPriority = getOption(o, "roundingPriority", ["auto", "morePrecision", "lessPrecision"], "auto", where);
    const trailingZeroDisplay = getOption(o, "trailingZeroDisplay", ["auto", "stripIfInteger"], "auto", where);
    if (increment !== 1) {
      rangeError("roundingIncrement " + increment + " is not supported here; round with Math.round first, or leave it out");
    }
    const hasSd = mnsd !== undefined || mxsd !== undefined;
    const hasFd = mnfd !== undefined || mxfd !== undefined;
    let needSd = true;
    let needFd = true;
    if (roundingPriority === "auto") {
      needSd = hasSd;
      if (needSd || (!hasFd && notation === "compact")) needFd = false;
    }
    if (needSd) {
      if (hasSd) {
        mnsd = numberOption(mnsd, 1, 21, 1, "minimumSignificantDigits");
        mxsd = numberOption(mxsd, mnsd, 21, 21, "maximumSignificantDigits");
      } else {
        mnsd = 1;
        mxsd = 21;
      }
      r.minimumSignificantDigits = mnsd;
      r.maximumSignificantDigits = mxsd;
    }
    if (needFd) {
      if (hasFd) {
        // node 20 bounds both by 20 (ECMA-402 before 2023).
        mnfd = numberOption(mnfd, 0, 20, undefined, "minimumFractionDigits");
        mxfd = numberOption(mxfd, 0, 20, undefined, "maximumFractionDigits");
        if (mnfd === undefined) mnfd = mnfdDefault < mxfd ? mnfdDefault : mxfd;
        else if (mxfd === undefined) mxfd = mxfdDefault > mnfd ? mxfdDefault : mnfd;
        else if (mnfd > mxfd) rangeError("maximumFractionDigits value is out of range.");
      } else {
        mnfd = mnfdDefault;
        mxfd = mxfdDefault;
      }
      r.minimumFractionDigits = mnfd;
      r.maximumFractionDigits = mxfd;
    }
    let priority = roundingPriority;
    if (!needSd && !needFd) {
      r.minimumSignificantDigits = 1;
      r.maximumSignificantDigits = 2;
      r.minimumFractionDigits = 0;
      r.maximumFractionDigits = 0;
      priority = "morePrecision";
      r.roundingType = "morePrecision";
    } else if (roundingPriority === "auto") {
      r.roundingType = needSd ? "significantDigits" : "fractionDigits";
    } else {
      r.roundingType = roundingPriority;
    }
    const compactDisplay = getOption(o, "compactDisplay", ["short", "long"], "short", where);
    const groupingDefault = notation === "compact" ? "min2" : "auto";
    let grouping = o.useGrouping;
    if (grouping === undefined) grouping = groupingDefault;
    else if (grouping === true) grouping = "always";
    else if (!grouping) grouping = false;
    else {
      grouping = toStr(grouping);
      if (grouping === "true" || grouping === "false") grouping = groupingDefault;
      else if (!has(["min2", "auto", "always"], grouping)) {
        rangeError("Value " + grouping + " out of range for " + where + " options property useGrouping");
      }
    }
    r.useGrouping = grouping;
    r.notation = notation;
    if (notation === "compact") r.compactDisplay = compactDisplay;
    r.signDisplay = getOption(o, "signDisplay", ["auto", "never", "always", "exceptZero", "negative"], "auto", where);
    r.roundingMode = roundingMode;
    r.roundingIncrement = increment;
    r.trailingZeroDisplay = trailingZeroDisplay;
    r.roundingPriority = priority;
    return r;
  }
  const NUMBER_KEYS = [
    "locale", "numberingSystem", "style", "currency", "currencyDisplay", "currencySign", "minimumIntegerDigits",
    "minimumSignificantDigits", "maximumSignificantDigits", "minimumFractionDigits", "maximumFractionDigits",
    "useGrouping", "notation", "compactDisplay", "signDisplay", "roundingMode", "roundingIncrement",
    "trailingZeroDisplay", "roundingPriority",
  ];
  const NUMBER_DEFAULT = resolveNumber(undefined, undefined, "Number.prototype.toLocaleString");

  function describe(v, proto, name) {
    if (v === proto) return "#<" + name + ">";
    if (typeof v === "object" && v !== null) return "#<Object>";
    if (typeof v === "function") return "function";
    if (typeof v === "symbol") return "Symbol()";
    return toStr(v);
  }
  const NFP = {};
  // V8's words: `format` and `resolvedOptions` unwrap an object receiver the legacy way (and
  // name what that found, undefined).
  function numberSlotsOf(nf, method, legacy) {
    const isObject = typeof nf === "object" && nf !== null;
    const r = isObject ? call(wmGet, numberSlots, nf) : undefined;
    if (r === undefined) {
      if (legacy && isObject) typeError("Method UnwrapNumberFormat called on incompatible receiver undefined");
      typeError("Method " + method + " called on incompatible receiver " + describe(nf, NFP, "NumberFormat"));
    }
    return r;
  }
  I.numberFormatInit = function numberFormatInit(locales, options) {
    const nf = this === undefined ? create(NFP) : this;
    const r = resolveNumber(locales, options, "Intl.NumberFormat");
    call(wmSet, numberSlots, nf, r);
    return nf;
  };
  const NM = {
    get format() {
      const r = numberSlotsOf(this, "UnwrapNumberFormat", true);
      if (r.bound === undefined) r.bound = unnamed((value) => fmtNumber(+value, r, false));
      return r.bound;
    },
    formatToParts(value) {
      return fmtNumber(+value, numberSlotsOf(this, "Intl.NumberFormat.prototype.formatToParts"), true);
    },
    resolvedOptions() {
      const r = numberSlotsOf(this, "Intl.NumberFormat.prototype.resolvedOptions", true);
      const out = {};
      for (let i = 0; i < NUMBER_KEYS.length; i++) {
        const k = NUMBER_KEYS[i];
        const v = k === "numberingSystem" ? "latn" : r[k];
        if (v !== undefined) I.createDataProperty(out, k, v);
      }
      return out;
    },
  };

  // ----- dates ------------------------------------------------------------------------------
  const DATE_FIELDS = [
    ["weekday", ["narrow", "short", "long"]],
    ["era", ["narrow", "short", "long"]],
    ["year", ["2-digit", "numeric"]],
    ["month", ["2-digit", "numeric", "narrow", "short", "long"]],
    ["day", ["2-digit", "numeric"]],
    ["dayPeriod", ["narrow", "short", "long"]],
    ["hour", ["2-digit", "numeric"]],
    ["minute", ["2-digit", "numeric"]],
    ["second", ["2-digit", "numeric"]],
    ["fractionalSecondDigits", undefined],
    ["timeZoneName", ["short", "long", "shortOffset", "longOffset", "shortGeneric", "longGeneric"]],
  ];
  const UTC_NAMES = ["UTC", "ETC/UTC", "GMT", "ETC/GMT", "UCT", "ETC/UCT", "ZULU", "ETC/ZULU", "UNIVERSAL",
    "ETC/UNIVERSAL", "GREENWICH", "ETC/GREENWICH", "ETC/GMT0", "ETC/GMT+0", "ETC/GMT-0", "GMT0", "GMT+0", "GMT-0"];
  const IANA = /^(?:(?:Africa|America|Antarctica|Arctic|Asia|Atlantic|Australia|Europe|Indian|Pacific|Etc|US|Canada|Brazil|Mexico|Chile)\/[A-Za-z0-9_+\-]+(?:\/[A-Za-z0-9_+\-]+)*|[A-Z]{3}[0-9]?(?:[A-Z]{3})?|Japan|Singapore|Israel|Iran|Egypt|Turkey|Poland|Portugal|Hongkong|Cuba|Eire|Iceland|Jamaica|Libya|Navajo|Kwajalein|GB|NZ|PRC|ROC|ROK)$/;
  function resolveZone(tz) {
    if (has(UTC_NAMES, call(upper, tz))) return "UTC";
    if (call(reExec, IANA, tz) === null) rangeError("Invalid time zone specified: " + tz);
    warn('Intl: time zone "' + tz + '" is not available; formatted as UTC');
    return "UTC";
  }
  // ToDateTimeOptions (ES2020 §12.1.1, as V8 still has it): an object inheriting from the
  // options, with the defaults as its own properties.
  function toDateTimeOptions(options, required, defaults) {
    if (options === null) typeError("Cannot convert undefined or null to object");
    const o = create(options === undefined ? null : ObjectOf(options));
    let need = true;
    const date = ["weekday", "year", "month", "day"];
    const time = ["dayPeriod", "hour", "minute", "second", "fractionalSecondDigits"];
    if (required === "date" || required === "any") for (let i = 0; i < date.length; i++) if (o[date[i]] !== undefined) need = false;
    if (required === "time" || required === "any") for (let i = 0; i < time.length; i++) if (o[time[i]] !== undefined) need = false;
    const dateStyle = o.dateStyle;
    const timeStyle = o.timeStyle;
    if (dateStyle !== undefined || timeStyle !== undefined) need = false;
    if (required === "date" && timeStyle !== undefined) typeError("Invalid option : timeStyle");
    if (required === "time" && dateStyle !== undefined) typeError("Invalid option : dateStyle");
    if (need && (defaults === "date" || defaults === "all")) for (let i = 1; i < 4; i++) I.createDataProperty(o, date[i], "numeric");
    if (need && (defaults === "time" || defaults === "all")) for (let i = 1; i < 4; i++) I.createDataProperty(o, time[i], "numeric");
    return o;
  }
  // InitializeDateTimeFormat (ES2020 §11.1.1, V8's order): the internal record.
  function initDate(locales, options, where) {
    const requested = localeList(locales);
    const o = toDateTimeOptions(options, "any", "date");
    getOption(o, "localeMatcher", ["lookup", "best fit"], "best fit", where);
    const calendar = getOption(o, "calendar", undefined, undefined, where);
    if (calendar !== undefined && calendar !== "gregory") {
      warn('Intl: calendar "' + calendar + '" is not available; formatted with gregory');
    }
    numberingSystem(o, where);
    const hour12 = getOption(o, "hour12", "boolean", undefined, where);
    let hourCycle = getOption(o, "hourCycle", ["h11", "h12", "h23", "h24"], undefined, where);
    if (hour12 !== undefined) hourCycle = undefined;
    let tz = o.timeZone;
    tz = tz === undefined ? "UTC" : resolveZone(toStr(tz));
    const f = create(null);
    for (let i = 0; i < DATE_FIELDS.length; i++) {
      const [name, values] = DATE_FIELDS[i];
      f[name] = name === "fractionalSecondDigits"
        ? numberOption(o[name], 1, 3, undefined, name)
        : getOption(o, name, values, undefined, where);
    }
    getOption(o, "formatMatcher", ["basic", "best fit"], "best fit", where);
    const styles = ["full", "long", "medium", "short"];
    const dateStyle = getOption(o, "dateStyle", styles, undefined, where);
    const timeStyle = getOption(o, "timeStyle", styles, undefined, where);
    const r = create(null);
    r.locale = resolveLocale(requested);
    r.calendar = "gregory";
    r.numberingSystem = "latn";
    r.timeZone = tz;
    if (dateStyle !== undefined || timeStyle !== undefined) {
      for (let i = 0; i < DATE_FIELDS.length; i++) {
        const name = DATE_FIELDS[i][0];
        if (f[name] !== undefined) {
          typeError("Can't set option " + name + " when " + (dateStyle !== undefined ? "dateStyle" : "timeStyle") + " is used");
        }
      }
    }
    if (f.hour !== undefined || timeStyle !== undefined) {
      // en-US is h12; `hour12: false` is h24 in node 20 (midnight is 24:00).
      const hc = hour12 !== undefined ? (hour12 ? "h12" : "h24") : hourCycle !== undefined ? hourCycle : "h12";
      r.hourCycle = hc;
      r.hour12 = hc === "h11" || hc === "h12";
      if (f.hour !== undefined && !r.hour12) f.hour = "2-digit";
      if (f.hour !== undefined && f.minute !== undefined) f.minute = "2-digit";
      if (f.minute !== undefined && f.second !== undefined) f.second = "2-digit";
    }
    for (let i = 0; i < DATE_FIELDS.length; i++) {
      const name = DATE_FIELDS[i][0];
      if (f[name] !== undefined) r[name] = f[name];
    }
    if (dateStyle !== undefined) r.dateStyle = dateStyle;
    if (timeStyle !== undefined) r.timeStyle = timeStyle;
    return r;
  }
  function resolveDate(locales, options, required, defaults, where) {
    return initDate(locales, toDateTimeOptions(options, required, defaults), where);
  }
  const DATE_DEFAULTS = [
    resolveDate(undefined, undefined, "date", "date", "Date.prototype.toLocaleDateString"),
    resolveDate(undefined, undefined, "time", "time", "Date.prototype.toLocaleTimeString"),
    resolveDate(undefined, undefined, "any", "all", "Date.prototype.toLocaleString"),
  ];
  const DATE_KEYS = ["locale", "calendar", "numberingSystem", "timeZone", "hourCycle", "hour12"];
  for (let i = 0; i < DATE_FIELDS.length; i++) push(DATE_KEYS, DATE_FIELDS[i][0]);
  push(DATE_KEYS, "dateStyle");
  push(DATE_KEYS, "timeStyle");

  const DTFP = {};
  function dateSlotsOf(dtf, method) {
    const r = typeof dtf === "object" && dtf !== null ? call(wmGet, dateSlots, dtf) : undefined;
    if (r === undefined) {
      typeError("Method " + method + " called on incompatible receiver " + describe(dtf, DTFP, "DateTimeFormat"));
    }
    return r;
  }
  const timeOf = (date) => (date === undefined ? now() : +date);
  I.dateTimeFormatInit = function dateTimeFormatInit(locales, options) {
    const dtf = this === undefined ? create(DTFP) : this;
    const r = initDate(locales, options, "Intl.DateTimeFormat");
    call(wmSet, dateSlots, dtf, r);
    return dtf;
  };
  const DM = {
    get format() {
      const r = dateSlotsOf(this, "UnwrapDateTimeFormat");
      if (r.bound === undefined) r.bound = unnamed((date) => fmtDate(timeOf(date), r, false));
      return r.bound;
    },
    formatToParts(date) {
      return fmtDate(timeOf(date), dateSlotsOf(this, "Intl.DateTimeFormat.prototype.formatToParts"), true);
    },
    resolvedOptions() {
      const r = dateSlotsOf(this, "UnwrapDateTimeFormat");
      const out = {};
      for (let i = 0; i < DATE_KEYS.length; i++) {
        const k = DATE_KEYS[i];
        if (r[k] !== undefined) I.createDataProperty(out, k, r[k]);
      }
      return out;
    },
  };

  // ----- the objects ------------------------------------------------------------------------
  const tag = Symbol.toStringTag;
  const Intl = {};
  defineProp(Intl, tag, { value: "Intl", configurable: true });
  const supportedLocalesOf = {
    supportedLocalesOf(locales, options = undefined) {
      const list = localeList(locales);
      if (options !== undefined) getOption(optionsObject(options, "supportedLocalesOf"), "localeMatcher", ["lookup", "best fit"], "best fit", "supportedLocalesOf");
      const out = [];
      for (let i = 0; i < list.length; i++) if (available(list[i])) push(out, list[i]);
      return out;
    },
  }.supportedLocalesOf;
  for (const [C, P, M, name] of [[NF, NFP, NM, "NumberFormat"], [DTF, DTFP, DM, "DateTimeFormat"]]) {
    defineProp(C, "prototype", { value: P });
    def(P, "constructor", C);
    def(C, "supportedLocalesOf", supportedLocalesOf);
    defineProp(P, "format", { get: ownDesc(M, "format").get, configurable: true });
    def(P, "formatToParts", M.formatToParts);
    def(P, "resolvedOptions", M.resolvedOptions);
    defineProp(P, tag, { value: "Intl." + name, configurable: true });
    def(Intl, name, C);
  }
  def(Intl, "getCanonicalLocales", {
    getCanonicalLocales(locales) {
      return localeList(locales);
    },
  }.getCanonicalLocales);
  def(globalThis, "Intl", Intl);

  // ----- toLocaleString ---------------------------------------------------------------------
  def(Number.prototype, "toLocaleString", function toLocaleString(locales = undefined, options = undefined) {
    const x = numberThis(this);
    const r = locales === undefined && options === undefined
      ? NUMBER_DEFAULT
      : resolveNumber(locales, options, "Number.prototype.toLocaleString");
    return fmtNumber(x, r, false);
  });
  const dateMethod = (which, required, defaults, where) => function (locales = undefined, options = undefined) {
    let t;
    try {
      t = dateValue(this);
    } catch {
      typeError("Method " + where + " called on incompatible receiver " + describe(this, DTFP, "DateTimeFormat"));
    }
    if (t !== t) return "Invalid Date";
    const r = locales === undefined && options === undefined
      ? DATE_DEFAULTS[which]
      : resolveDate(locales, options, required, defaults, where);
    return fmtDate(t, r, false);
  };
  const DL = {
    toLocaleDateString: dateMethod(0, "date", "date", "Date.prototype.toLocaleDateString"),
    toLocaleTimeString: dateMethod(1, "time", "time", "Date.prototype.toLocaleTimeString"),
    toLocaleString: dateMethod(2, "any", "all", "Date.prototype.toLocaleString"),
  };
  for (const k of ["toLocaleDateString", "toLocaleTimeString", "toLocaleString"]) {
    defineProp(DL[k], "name", { value: k, configurable: true });
    def(Date.prototype, k, DL[k]);
  }
}
