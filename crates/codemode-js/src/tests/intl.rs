//! `Intl` and the `toLocale*String` options beyond what node agrees on (the differential
//! corpus `tests/differential/intl.js` holds the rest): other locales and time zones fall
//! back to en-US and UTC with one warning per run and name.

use super::*;

/// Run `src` to its value and its warnings' messages.
fn value_and_warnings(src: &str) -> (Json, Vec<String>) {
    let mut m = machine(src, None).expect("compiles");
    loop {
        match m.run(100_000) {
            Step::Yield => continue,
            Step::Done { value, .. } => {
                let w = m.take_warnings().into_iter().map(|w| w.message).collect();
                return (value, w);
            }
            other => panic!("{src}: {other:?}"),
        }
    }
}

fn warning(locale_or_zone: &str, zone: bool) -> String {
    if zone {
        format!("Intl: time zone \"{locale_or_zone}\" is not available; formatted as UTC")
    } else {
        format!("Intl: locale \"{locale_or_zone}\" is not available; formatted as en-US")
    }
}

#[test]
fn other_locales_format_as_en_us_with_one_warning_each() {
    let (v, w) = value_and_warnings(
        r#"const a = (1234.5).toLocaleString("de-DE");
        const b = (1234.5).toLocaleString("de-DE", { style: "currency", currency: "EUR" });
        const nf = new Intl.NumberFormat("fr", { maximumFractionDigits: 1 });
        const d = new Date(Date.UTC(2026, 0, 2, 3, 4, 5));
        return [a, b, nf.format(9876.54), nf.resolvedOptions().locale,
          d.toLocaleDateString("de-DE"), d.toLocaleString("ja-JP", { dateStyle: "medium" }),
          d.toLocaleDateString("en-GB"), (5).toLocaleString(["de-DE", "en-US"])];"#,
    );
    assert_eq!(
        v,
        json!([
            "1,234.5",
            "€1,234.50",
            "9,876.5",
            "en-US",
            "1/2/2026",
            "Jan 2, 2026",
            "1/2/2026",
            "5"
        ])
    );
    assert_eq!(
        w,
        vec![
            warning("de-DE", false),
            warning("fr", false),
            warning("ja-JP", false),
            warning("en-GB", false)
        ]
    );
}

#[test]
fn other_time_zones_format_as_utc_with_a_warning() {
    let (v, w) = value_and_warnings(
        r#"const d = new Date(Date.UTC(2026, 0, 2, 3, 4, 5));
        const f = new Intl.DateTimeFormat("en-US", { timeZone: "America/New_York", timeStyle: "short" });
        return [d.toLocaleString("en-US", { timeZone: "America/New_York" }), f.format(d),
          f.resolvedOptions().timeZone, d.toLocaleString("en-US", { timeZone: "Europe/Berlin" }),
          d.toLocaleString("en-US", { timeZone: "Etc/UTC" }), d.toLocaleString("en-US", { timeZone: "gmt" })];"#,
    );
    assert_eq!(
        v,
        json!([
            "1/2/2026, 3:04:05 AM",
            "3:04 AM",
            "UTC",
            "1/2/2026, 3:04:05 AM",
            "1/2/2026, 3:04:05 AM",
            "1/2/2026, 3:04:05 AM"
        ])
    );
    assert_eq!(
        w,
        vec![
            warning("America/New_York", true),
            warning("Europe/Berlin", true)
        ]
    );
}

#[test]
fn calendars_and_numbering_systems_fall_back_too() {
    let (v, w) = value_and_warnings(
        r#"return [(12).toLocaleString("en-US", { numberingSystem: "arab" }),
          new Date(0).toLocaleDateString("en-US", { calendar: "japanese" })];"#,
    );
    assert_eq!(v, json!(["12", "1/1/1970"]));
    assert_eq!(
        w,
        vec![
            "Intl: numbering system \"arab\" is not available; formatted with latn digits"
                .to_string(),
            "Intl: calendar \"japanese\" is not available; formatted with gregory".to_string()
        ]
    );
}

#[test]
fn en_us_and_malformed_tags_give_no_warning() {
    let (v, w) = value_and_warnings(
        r#"const errs = [];
        for (const t of ["en_US", "", "en--US", "e"]) {
          try { (1).toLocaleString(t); } catch (e) { errs.push(e.name + ": " + e.message); }
        }
        return [(1).toLocaleString("en-US"), (1).toLocaleString("en"), ...errs];"#,
    );
    assert_eq!(
        v,
        json!([
            "1",
            "1",
            "RangeError: Incorrect locale information provided",
            "RangeError: Incorrect locale information provided",
            "RangeError: Incorrect locale information provided",
            "RangeError: Incorrect locale information provided"
        ])
    );
    assert!(w.is_empty(), "{w:?}");
}

#[test]
fn hostile_option_values_throw_or_format_without_panics() {
    let (v, _) = value_and_warnings(
        r#"const out = [];
        const cases = [
          () => (5e-324).toLocaleString("en-US", { maximumFractionDigits: 20, minimumIntegerDigits: 21 }),
          () => (1.7976931348623157e308).toLocaleString("en-US", { notation: "compact", compactDisplay: "long" }),
          () => (1.7976931348623157e308).toLocaleString("en-US", { notation: "engineering" }),
          () => (-5e-324).toLocaleString("en-US", { maximumSignificantDigits: 21, minimumSignificantDigits: 21 }),
          () => (0.5).toLocaleString("en-US", { style: "unit", unit: "meter" }),
          () => (1).toLocaleString("en-US", { style: Symbol("x") }),
          () => (1).toLocaleString("en-US", { get style() { throw new Error("boom"); } }),
          () => (1).toLocaleString("en-US", { roundingIncrement: 5, maximumFractionDigits: 1 }),
          () => new Date(8.64e15).toLocaleString("en-US", { dateStyle: "full", timeStyle: "full" }),
          () => new Date(-8.64e15).toLocaleString("en-US", { era: "long", dayPeriod: "long", timeZoneName: "longOffset" }),
          () => Intl.NumberFormat.prototype.formatToParts.call(Object.create(Intl.NumberFormat.prototype), 1),
        ];
        for (const f of cases) {
          try { out.push(f()); } catch (e) { out.push(e.name + ": " + e.message); }
        }
        return out;"#,
    );
    let v = v.as_array().expect("array").clone();
    assert_eq!(v[0], json!("000,000,000,000,000,000,000"));
    // Compact rounding is morePrecision: the fraction rounding keeps every integer digit.
    let digits = format!("17976931348623157{}", "0".repeat(297 - 17));
    let mut grouped = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(c);
    }
    assert_eq!(v[1], json!(format!("{grouped} trillion")));
    assert_eq!(v[2], json!("179.769E306"));
    assert_eq!(
        v[3],
        json!(format!("-0.{}5{}", "0".repeat(323), "0".repeat(20)))
    );
    assert!(
        v[4].as_str()
            .unwrap()
            .starts_with("RangeError: style \"unit\" is not supported")
    );
    assert_eq!(
        v[5],
        json!("TypeError: Cannot convert a Symbol value to a string")
    );
    assert_eq!(v[6], json!("Error: boom"));
    assert!(
        v[7].as_str()
            .unwrap()
            .starts_with("RangeError: roundingIncrement 5 is not supported")
    );
    assert_eq!(
        v[8],
        json!("Saturday, September 13, 275760 at 12:00:00 AM Coordinated Universal Time")
    );
    assert!(v[9].is_string(), "{:?}", v[9]);
    assert_eq!(
        v[10],
        json!(
            "TypeError: Method Intl.NumberFormat.prototype.formatToParts called on incompatible receiver #<Object>"
        )
    );
}
