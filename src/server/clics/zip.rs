//! ZIP archives as the Contest API and the contest package use them: a
//! submission's files (`files.zip`, its sources at the root) and a whole
//! package to download. Entries are stored, not compressed (sources are
//! small and a package is mostly JSON read once), with UTF-8 names, a
//! CRC-32 each, and one fixed time for every entry so the same files give
//! the same bytes.

/// Why files do not fit in a plain (not ZIP64) archive.
#[derive(Debug, thiserror::Error)]
#[error("too large for a ZIP archive: {0}")]
pub struct TooLarge(String);

const CRC32: crc::Crc<u32> = crc::Crc::<u32>::new(&crc::CRC_32_ISO_HDLC);

/// `ms` (Unix milliseconds) as MS-DOS time and date fields, the ZIP
/// format's own; 1980-01-01 for anything earlier.
fn dos_time(ms: i64) -> (u16, u16) {
    let text = crate::contest::time::format_time(ms.max(315_532_800_000));
    let n = |range: std::ops::Range<usize>| text[range].parse::<u16>().unwrap_or(0);
    let (year, month, day) = (n(0..4), n(5..7), n(8..10));
    let (hour, minute, second) = (n(11..13), n(14..16), n(17..19));
    let time = (hour << 11) | (minute << 5) | (second / 2);
    let date = (year.saturating_sub(1980).min(127) << 9) | (month << 5) | day;
    (time, date)
}

/// An archive of `files` (path inside the archive, bytes), in that order,
/// each stamped with time `ms`.
///
/// # Errors
/// [`TooLarge`] past 65,535 entries or 4 GiB.
pub fn write(files: &[(String, Vec<u8>)], ms: i64) -> Result<Vec<u8>, TooLarge> {
    if files.len() > usize::from(u16::MAX) {
        return Err(TooLarge(format!("{} files", files.len())));
    }
    let (time, date) = dos_time(ms);
    let mut out: Vec<u8> = Vec::new();
    let mut central: Vec<u8> = Vec::new();
    let small = |n: usize, what: &str| {
        u32::try_from(n).map_err(|_| TooLarge(format!("{what} of {n} bytes")))
    };
    for (name, data) in files {
        let offset = small(out.len(), "an archive")?;
        let size = small(data.len(), name)?;
        let crc = CRC32.checksum(data);
        let name_len = u16::try_from(name.len())
            .map_err(|_| TooLarge(format!("a name of {} bytes", name.len())))?;
        // The fields both headers share, from "version needed" on.
        let mut common = Vec::with_capacity(26);
        common.extend_from_slice(&20u16.to_le_bytes()); // version needed: 2.0
        common.extend_from_slice(&0x0800u16.to_le_bytes()); // names in UTF-8
        common.extend_from_slice(&0u16.to_le_bytes()); // stored
        common.extend_from_slice(&time.to_le_bytes());
        common.extend_from_slice(&date.to_le_bytes());
        common.extend_from_slice(&crc.to_le_bytes());
        common.extend_from_slice(&size.to_le_bytes()); // compressed
        common.extend_from_slice(&size.to_le_bytes()); // uncompressed
        common.extend_from_slice(&name_len.to_le_bytes());
        common.extend_from_slice(&0u16.to_le_bytes()); // no extra field

        out.extend_from_slice(&0x0403_4b50u32.to_le_bytes());
        out.extend_from_slice(&common);
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(data);

        central.extend_from_slice(&0x0201_4b50u32.to_le_bytes());
        central.extend_from_slice(&(0x0300u16 | 20).to_le_bytes()); // made by: Unix, 2.0
        central.extend_from_slice(&common);
        central.extend_from_slice(&0u16.to_le_bytes()); // no comment
        central.extend_from_slice(&0u16.to_le_bytes()); // disk 0
        central.extend_from_slice(&0u16.to_le_bytes()); // internal attributes
        central.extend_from_slice(&(0o100_644u32 << 16).to_le_bytes()); // a plain rw-r--r-- file
        central.extend_from_slice(&offset.to_le_bytes());
        central.extend_from_slice(name.as_bytes());
    }
    let central_at = small(out.len(), "an archive")?;
    let central_len = small(central.len(), "a directory")?;
    out.extend_from_slice(&central);
    let count = files.len() as u16; // checked above
    out.extend_from_slice(&0x0605_4b50u32.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes()); // this disk
    out.extend_from_slice(&0u16.to_le_bytes()); // the directory's disk
    out.extend_from_slice(&count.to_le_bytes());
    out.extend_from_slice(&count.to_le_bytes());
    out.extend_from_slice(&central_len.to_le_bytes());
    out.extend_from_slice(&central_at.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes()); // no comment
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn u16_at(b: &[u8], at: usize) -> usize {
        usize::from(u16::from_le_bytes([b[at], b[at + 1]]))
    }

    fn u32_at(b: &[u8], at: usize) -> u32 {
        u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
    }

    /// Reads an archive back from its end record and central directory,
    /// as an unzip tool does, checking each entry's CRC.
    fn read(zip: &[u8]) -> Vec<(String, Vec<u8>)> {
        let end = zip.len() - 22;
        assert_eq!(u32_at(zip, end), 0x0605_4b50, "the end record");
        let count = u16_at(zip, end + 10);
        let mut at = u32_at(zip, end + 16) as usize;
        let mut files = Vec::new();
        for _ in 0..count {
            assert_eq!(u32_at(zip, at), 0x0201_4b50, "a directory entry");
            let crc = u32_at(zip, at + 16);
            let size = u32_at(zip, at + 24) as usize;
            let name_len = u16_at(zip, at + 28);
            let local = u32_at(zip, at + 42) as usize;
            let name = String::from_utf8(zip[at + 46..at + 46 + name_len].to_vec()).unwrap();
            assert_eq!(u32_at(zip, local), 0x0403_4b50, "a local header");
            assert_eq!(u16_at(zip, local + 26), name_len);
            let data = zip[local + 30 + name_len..local + 30 + name_len + size].to_vec();
            assert_eq!(CRC32.checksum(&data), crc, "{name}'s CRC");
            files.push((name, data));
            at += 46 + name_len;
        }
        files
    }

    #[test]
    fn crc32_is_the_zip_formats_own() {
        // The standard check value of CRC-32 (ISO-HDLC) over "123456789".
        assert_eq!(CRC32.checksum(b"123456789"), 0xCBF4_3926);
    }

    #[test]
    fn an_archive_reads_back_entry_for_entry() {
        let files = vec![
            ("contest.json".to_string(), b"{\"id\":\"cup\"}".to_vec()),
            ("submissions/7/files.zip".to_string(), vec![0, 1, 2, 255]),
            ("empty".to_string(), Vec::new()),
        ];
        let zip = write(&files, 1_800_000_000_000).unwrap();
        assert_eq!(read(&zip), files);
        assert_eq!(
            write(&files, 1_800_000_000_000).unwrap(),
            zip,
            "the same bytes"
        );
        assert_eq!(read(&write(&[], 0).unwrap()), Vec::new());
    }

    #[test]
    fn dos_times_count_from_1980() {
        // 2026-11-26T10:20:30Z
        let (time, date) = dos_time(1_795_688_430_000);
        assert_eq!(
            (time >> 11, (time >> 5) & 63, (time & 31) * 2),
            (10, 20, 30)
        );
        assert_eq!((date >> 9, (date >> 5) & 15, date & 31), (46, 11, 26));
        assert_eq!(dos_time(0), (0, (1 << 5) | 1), "1980-01-01 at the earliest");
    }
}
