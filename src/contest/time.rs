//! Times as contests need them: Unix milliseconds (UTC) to and from the
//! ISO 8601 text the store, the command line and the CLICS API use, and
//! lengths of time as people type them (`5h`, `90m`, `1:30:00`).

/// Days from 1970-01-01 to the civil date `y-m-d` (proleptic Gregorian).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The civil date of `days` after 1970-01-01.
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (
        if m <= 2 {
            yoe + era * 400 + 1
        } else {
            yoe + era * 400
        },
        m,
        d,
    )
}

fn digits(s: &str) -> Option<i64> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// Parses `YYYY-MM-DD[T ]HH:MM[:SS[.fff]][Z|±HH[:MM]]` (no zone: UTC) to
/// Unix milliseconds.
pub fn parse_time(text: &str) -> Option<i64> {
    let text = text.trim();
    let (date, rest) = text.split_at_checked(10)?;
    let mut parts = date.split('-');
    let (y, m, d) = (
        digits(parts.next()?)?,
        digits(parts.next()?)?,
        digits(parts.next()?)?,
    );
    if !(1..=12).contains(&m) || !(1..=31).contains(&d) || date.len() != 10 {
        return None;
    }
    let rest = rest.strip_prefix(['T', ' '])?;
    // The zone, where one is given.
    let (clock, offset_min) = if let Some(clock) = rest.strip_suffix('Z') {
        (clock, 0)
    } else if let Some(at) = rest.rfind(['+', '-']).filter(|&at| at >= 5) {
        let (clock, zone) = rest.split_at(at);
        let sign = if zone.starts_with('-') { -1 } else { 1 };
        let zone = &zone[1..];
        let (h, mm) = match zone.split_once(':') {
            Some((h, mm)) => (digits(h)?, digits(mm)?),
            None if zone.len() == 4 => (digits(&zone[..2])?, digits(&zone[2..])?),
            None => (digits(zone)?, 0),
        };
        (clock, sign * (h * 60 + mm))
    } else {
        (rest, 0)
    };
    let mut fields = clock.split(':');
    let h = digits(fields.next()?)?;
    let min = digits(fields.next()?)?;
    let (s, ms) = match fields.next() {
        None => (0, 0),
        Some(sec) => match sec.split_once('.') {
            None => (digits(sec)?, 0),
            Some((s, frac)) => {
                let frac3: String = frac.chars().chain("000".chars()).take(3).collect();
                digits(frac)?;
                (digits(s)?, digits(&frac3)?)
            }
        },
    };
    if fields.next().is_some() || h > 23 || min > 59 || s > 60 {
        return None;
    }
    let days = days_from_civil(y, m, d);
    Some(((days * 24 + h) * 60 + min - offset_min) * 60_000 + s * 1000 + ms)
}

/// `ms` as `YYYY-MM-DDTHH:MM:SS.fff+00:00` (the CLICS API's TIME).
pub fn format_time(ms: i64) -> String {
    let (days, rem) = (ms.div_euclid(86_400_000), ms.rem_euclid(86_400_000));
    let (y, m, d) = civil_from_days(days);
    let (h, rem) = (rem / 3_600_000, rem % 3_600_000);
    let (min, rem) = (rem / 60_000, rem % 60_000);
    format!(
        "{y:04}-{m:02}-{d:02}T{h:02}:{min:02}:{:02}.{:03}+00:00",
        rem / 1000,
        rem % 1000
    )
}

/// `ms` as `YYYY-MM-DD HH:MM:SS UTC`, for people.
pub fn format_human(ms: i64) -> String {
    let t = format_time(ms);
    format!("{} {} UTC", &t[..10], &t[11..19])
}

/// A length of time as `[-]H:MM:SS.fff` (the CLICS API's RELTIME).
pub fn format_reltime(ms: i64) -> String {
    let sign = if ms < 0 { "-" } else { "" };
    let ms = ms.unsigned_abs();
    format!(
        "{sign}{}:{:02}:{:02}.{:03}",
        ms / 3_600_000,
        ms / 60_000 % 60,
        ms / 1000 % 60,
        ms % 1000
    )
}

/// A length of time typed by a person, in seconds: `H:MM:SS`, `H:MM`, or
/// a number with a unit (`90m`, `5h`, `300s`, `1h30m`).
pub fn parse_length(text: &str) -> Option<i64> {
    let text = text.trim();
    if text.contains(':') {
        let parts: Vec<i64> = text.split(':').map(digits).collect::<Option<_>>()?;
        return match parts[..] {
            [h, m] if m < 60 => Some(h * 3600 + m * 60),
            [h, m, s] if m < 60 && s < 60 => Some(h * 3600 + m * 60 + s),
            _ => None,
        };
    }
    let (mut total, mut number) = (0i64, String::new());
    for c in text.chars() {
        if c.is_ascii_digit() {
            number.push(c);
            continue;
        }
        let unit = match c {
            'h' => 3600,
            'm' => 60,
            's' => 1,
            _ => return None,
        };
        total = total.checked_add(digits(&number)?.checked_mul(unit)?)?;
        number.clear();
    }
    if !number.is_empty() {
        return None;
    }
    (!text.is_empty()).then_some(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_round_trip_through_iso_text() {
        assert_eq!(parse_time("1970-01-01T00:00:00Z"), Some(0));
        let ms = parse_time("2026-11-26T05:25:06.250Z").unwrap();
        assert_eq!(format_time(ms), "2026-11-26T05:25:06.250+00:00");
        assert_eq!(parse_time(&format_time(ms)), Some(ms));
        assert_eq!(
            parse_time("2026-11-26 05:25"),
            parse_time("2026-11-26T05:25:00Z")
        );
        assert_eq!(
            parse_time("2026-11-26T07:25:06.25+02:00"),
            Some(ms),
            "an offset east of UTC is earlier in UTC"
        );
        assert_eq!(
            parse_time("2024-02-29T12:00:00Z")
                .map(format_time)
                .as_deref(),
            Some("2024-02-29T12:00:00.000+00:00")
        );
        for bad in [
            "",
            "2026-13-01T00:00",
            "2026-11-26",
            "2026-11-26T25:00",
            "tomorrow",
            "2026-11-26T10:00:xx",
        ] {
            assert_eq!(parse_time(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn reltimes_and_typed_lengths() {
        assert_eq!(format_reltime(0), "0:00:00.000");
        assert_eq!(format_reltime(3_723_004), "1:02:03.004");
        assert_eq!(format_reltime(-61_000), "-0:01:01.000");
        assert_eq!(parse_length("5h"), Some(18_000));
        assert_eq!(parse_length("1h30m"), Some(5400));
        assert_eq!(parse_length("90m"), Some(5400));
        assert_eq!(parse_length("1:30"), Some(5400));
        assert_eq!(parse_length("0:00:45"), Some(45));
        for bad in ["", "5", "h", "1:75", "5 hours", "-5m"] {
            assert_eq!(parse_length(bad), None, "{bad:?}");
        }
    }
}
