//! Where another system's contest is read from: its Contest API (a URL
//! ending in `/contests/<id>`, credentials as the URL's user and password
//! for HTTP Basic or a bearer token) or a CLICS contest package (a
//! directory, or a ZIP archive unpacked within bounds). Either gives the
//! contest's objects by endpoint, its event feed line by line, and a
//! submission's files. Blocking: callers run it off the async threads.

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{bail, Context as _};
use serde_json::Value;

use crate::problem::unzip::{self, Bounds};

/// The longest silence of a connection before it is taken as dead (the
/// standard's feed sends a newline at least every 120 seconds): the feed
/// is then asked again from its last token.
pub const SILENCE: Duration = Duration::from_secs(150);
/// What a package archive may hold once unpacked.
const PACKAGE_BOUNDS: Bounds = Bounds {
    bytes: 4 << 30,
    entries: 400_000,
};
/// What one submission's files may hold.
const FILES_BYTES: u64 = 16 << 20;
const FILES_ENTRIES: usize = 100;

/// A contest's source.
pub enum Source {
    Package {
        root: PathBuf,
        /// An archive's unpacked copy, removed with the source.
        _unpacked: Option<tempfile::TempDir>,
    },
    Api {
        agent: ureq::Agent,
        /// `.../contests/<id>`, no slash at the end.
        base: String,
        /// `.../` that the files' `href`s are relative to.
        root: String,
        authorization: Option<String>,
    },
}

impl std::fmt::Debug for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.describe())
    }
}

/// A submission's source files: (file name, contents).
pub type Files = Vec<(String, Vec<u8>)>;

impl Source {
    /// The source `text` names: a URL (`http://` or `https://`), a
    /// directory, or a ZIP archive. `token`: a bearer token for an API.
    ///
    /// # Errors
    /// A path that is neither, an archive refused, a URL that names no
    /// contest.
    pub fn open(text: &str, token: Option<&str>) -> anyhow::Result<Source> {
        if text.starts_with("http://") || text.starts_with("https://") {
            return Source::api(text, token);
        }
        let path = Path::new(text);
        if path.is_dir() {
            return Ok(Source::Package {
                root: package_root(path)?,
                _unpacked: None,
            });
        }
        let bytes = std::fs::read(path).with_context(|| format!("reading {text}"))?;
        let dir = tempfile::tempdir().context("making a directory to unpack into")?;
        unzip::unzip(&bytes, dir.path(), PACKAGE_BOUNDS)
            .with_context(|| format!("unpacking {text}"))?;
        Ok(Source::Package {
            root: package_root(dir.path()).with_context(|| format!("in {text}"))?,
            _unpacked: Some(dir),
        })
    }

    fn api(text: &str, token: Option<&str>) -> anyhow::Result<Source> {
        let mut url = url::Url::parse(text).with_context(|| format!("{text:?} is not a URL"))?;
        let authorization = match (token, url.username(), url.password()) {
            (Some(t), _, _) => Some(format!("Bearer {t}")),
            (None, "", None) => None,
            (None, user, password) => {
                use base64::Engine as _;
                let user = percent_decoded(user);
                let password = percent_decoded(password.unwrap_or(""));
                let pair =
                    base64::engine::general_purpose::STANDARD.encode(format!("{user}:{password}"));
                Some(format!("Basic {pair}"))
            }
        };
        let _ = url.set_username("");
        let _ = url.set_password(None);
        let base = url.as_str().trim_end_matches('/').to_string();
        let Some(at) = base.rfind("/contests/") else {
            bail!("{base}: give the contest's URL in the Contest API (…/api/contests/ID)");
        };
        if base[at + "/contests/".len()..].contains('/') {
            bail!("{base}: give the contest's URL in the Contest API (…/api/contests/ID)");
        }
        let agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_connect(Some(Duration::from_secs(10)))
            .timeout_recv_response(Some(Duration::from_secs(60)))
            .timeout_per_read(Some(SILENCE))
            .build()
            .into();
        Ok(Source::Api {
            agent,
            root: base[..=at].to_string(),
            base,
            authorization,
        })
    }

    /// The source as a person names it (no credentials).
    pub fn describe(&self) -> String {
        match self {
            Source::Package {
                root,
                _unpacked: None,
            } => root.display().to_string(),
            Source::Package { .. } => "the package".into(),
            Source::Api { base, .. } => base.clone(),
        }
    }

    /// The object or collection of `endpoint` (`""` the contest itself,
    /// `problems`, `teams`, ...); `None` where the source has none.
    ///
    /// # Errors
    /// A file or reply that is not JSON; a request refused.
    pub fn object(&self, endpoint: &str) -> anyhow::Result<Option<Value>> {
        match self {
            Source::Package { root, .. } => {
                let name = if endpoint.is_empty() {
                    "contest"
                } else {
                    endpoint
                };
                let path = root.join(format!("{name}.json"));
                match std::fs::read_to_string(&path) {
                    Ok(text) => serde_json::from_str(&text)
                        .map(Some)
                        .with_context(|| format!("{name}.json is not JSON")),
                    // Files people write may be YAML instead.
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                        let yaml = root.join(format!("{name}.yaml"));
                        match std::fs::read_to_string(&yaml) {
                            Ok(text) => serde_yaml_ng::from_str::<Value>(&text)
                                .map(Some)
                                .with_context(|| format!("{name}.yaml is not YAML")),
                            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
                            Err(e) => Err(e).with_context(|| format!("reading {}", yaml.display())),
                        }
                    }
                    Err(e) => Err(e).with_context(|| format!("reading {}", path.display())),
                }
            }
            Source::Api { base, .. } => {
                let url = match endpoint {
                    "" => base.clone(),
                    e => format!("{base}/{e}"),
                };
                let Some(mut resp) = self.get(&url)? else {
                    return Ok(None);
                };
                resp.body_mut()
                    .with_config()
                    .limit(256 << 20)
                    .read_json::<Value>()
                    .map(Some)
                    .with_context(|| format!("reading {url}"))
            }
        }
    }

    /// A GET of `url` with the source's credentials (where `url` is on the
    /// source's origin); `None` for a 404.
    fn get(&self, url: &str) -> anyhow::Result<Option<ureq::http::Response<ureq::Body>>> {
        let Source::Api {
            agent,
            authorization,
            base,
            ..
        } = self
        else {
            unreachable!("only an API is asked over HTTP");
        };
        let mut request = agent.get(url);
        // The credentials go to the other system's own origin only: a file
        // reference may point anywhere.
        if let Some(a) = authorization.as_ref().filter(|_| same_origin(base, url)) {
            request = request.header("Authorization", a);
        }
        let mut resp = request
            .call()
            .with_context(|| format!("connecting to {url}"))?;
        let status = resp.status().as_u16();
        if status == 404 {
            return Ok(None);
        }
        if !resp.status().is_success() {
            let body: Value = resp.body_mut().read_json().unwrap_or(Value::Null);
            let why = body["error"]["message"]
                .as_str()
                .or(body["message"].as_str())
                .unwrap_or("no message");
            bail!("{url}: {status} {why}");
        }
        Ok(Some(resp))
    }

    /// Reads the event feed after `since` (a token the source gave; none:
    /// from the start), handing each line to `each` until it returns
    /// `false` or the feed ends (a package's last line; an API's request
    /// closed or silent for [`SILENCE`]: call again from the last token to
    /// go on). Returns whether `each` stopped it.
    ///
    /// # Errors
    /// No feed, a token the source never gave, a request refused.
    pub fn feed(
        &self,
        since: Option<&str>,
        mut each: impl FnMut(&str) -> anyhow::Result<bool>,
    ) -> anyhow::Result<bool> {
        match self {
            Source::Package { root, .. } => {
                let path = root.join("event-feed.ndjson");
                let file = std::fs::File::open(&path).with_context(|| {
                    format!("reading the package's event feed {}", path.display())
                })?;
                let mut skipping = since.is_some();
                for line in BufReader::new(file).lines() {
                    let line = line.context("reading event-feed.ndjson")?;
                    if skipping {
                        let token = serde_json::from_str::<Value>(&line)
                            .ok()
                            .and_then(|v| super::feed::text(&v, "token"));
                        skipping = token.as_deref() != since;
                        continue;
                    }
                    if !each(&line)? {
                        return Ok(true);
                    }
                }
                if skipping {
                    bail!(
                        "the package's event feed has no token {:?}: it is not the feed followed before",
                        since.unwrap_or_default()
                    );
                }
                Ok(false)
            }
            Source::Api { base, .. } => {
                let url = match since {
                    Some(t) => format!("{base}/event-feed?since_token={}", encoded(t)),
                    None => format!("{base}/event-feed"),
                };
                let Some(resp) = self.get(&url)? else {
                    bail!("{url}: the source has no event feed");
                };
                let reader = BufReader::new(resp.into_body().into_reader());
                for line in reader.lines() {
                    let line = match line {
                        Ok(line) => line,
                        // The request's time is up, or the connection
                        // dropped: the caller goes on from the last token.
                        Err(e) => {
                            tracing::info!(error = %e, "the event feed's request ended");
                            return Ok(false);
                        }
                    };
                    if !each(&line)? {
                        return Ok(true);
                    }
                }
                Ok(false)
            }
        }
    }

    /// The files of submission `id`, whose object refers to them by
    /// `refs` (its `files`): in a package `submissions/<id>/<filename>`
    /// (the reference's; `files.zip` by default) or the directory
    /// `submissions/<id>/files/`; from an API the reference's `href`.
    ///
    /// # Errors
    /// The files missing, or an archive refused: one line saying which.
    pub fn files(&self, id: &str, refs: &Value) -> anyhow::Result<Files> {
        match self {
            Source::Package { root, .. } => {
                let dir = root.join("submissions").join(id);
                // A package keeps a reference's file as
                // `<endpoint>/<id>/<filename>`.
                let named = refs
                    .as_array()
                    .and_then(|all| all.iter().find_map(|r| r["filename"].as_str()))
                    .filter(|n| !n.contains(['/', '\\']) && !n.starts_with('.'))
                    .unwrap_or("files.zip");
                let zip = dir.join(named);
                if zip.is_file() {
                    let bytes = std::fs::read(&zip)
                        .with_context(|| format!("reading {}", zip.display()))?;
                    return read_zip(&bytes);
                }
                let files = dir.join("files");
                if files.is_dir() {
                    return read_dir(&files);
                }
                bail!("the package has no files for submission {id} (submissions/{id}/files.zip)")
            }
            Source::Api { root, .. } => {
                let href = refs
                    .as_array()
                    .and_then(|all| all.iter().find_map(|r| r["href"].as_str()))
                    .ok_or_else(|| anyhow::anyhow!("submission {id} names no files"))?;
                let url = if href.starts_with("http://") || href.starts_with("https://") {
                    href.to_string()
                } else {
                    format!("{root}{}", href.trim_start_matches('/'))
                };
                let Some(resp) = self.get(&url)? else {
                    bail!("the files of submission {id} are missing ({url}: 404)");
                };
                let mut bytes = Vec::new();
                resp.into_body()
                    .into_reader()
                    .take(FILES_BYTES + 1)
                    .read_to_end(&mut bytes)
                    .with_context(|| format!("reading {url}"))?;
                if bytes.len() as u64 > FILES_BYTES {
                    bail!(
                        "the files of submission {id} exceed {} MiB",
                        FILES_BYTES >> 20
                    );
                }
                read_zip(&bytes)
            }
        }
    }
}

impl Source {
    /// The Kattis problem package problem `id` carries (its object's
    /// `package` reference): in a package `problems/<id>/<filename>`, from
    /// an API the reference's `href`; `None` where it carries none.
    /// `limit`: the most bytes read.
    ///
    /// # Errors
    /// A package named but missing, over `limit`, or refused.
    pub fn problem_package(
        &self,
        id: &str,
        problem: &Value,
        limit: u64,
    ) -> anyhow::Result<Option<Vec<u8>>> {
        let Some(r) = problem["package"].as_array().and_then(|all| all.first()) else {
            return Ok(None);
        };
        match self {
            Source::Package { root, .. } => {
                let Some(name) = r["filename"]
                    .as_str()
                    .filter(|n| !n.contains(['/', '\\']) && !n.starts_with('.'))
                else {
                    return Ok(None);
                };
                let path = root.join("problems").join(id).join(name);
                if !path.is_file() {
                    bail!("problem {id}: its package {} is missing", path.display());
                }
                if std::fs::metadata(&path)?.len() > limit {
                    bail!("problem {id}: its package is over {} MiB", limit >> 20);
                }
                Ok(Some(
                    std::fs::read(&path).with_context(|| format!("reading {}", path.display()))?,
                ))
            }
            Source::Api { root, .. } => {
                let Some(href) = r["href"].as_str() else {
                    return Ok(None);
                };
                let url = if href.starts_with("http://") || href.starts_with("https://") {
                    href.to_string()
                } else {
                    format!("{root}{}", href.trim_start_matches('/'))
                };
                let Some(resp) = self.get(&url)? else {
                    bail!("problem {id}: its package is missing ({url}: 404)");
                };
                let mut bytes = Vec::new();
                resp.into_body()
                    .into_reader()
                    .take(limit + 1)
                    .read_to_end(&mut bytes)
                    .with_context(|| format!("reading {url}"))?;
                if bytes.len() as u64 > limit {
                    bail!("problem {id}: its package is over {} MiB", limit >> 20);
                }
                Ok(Some(bytes))
            }
        }
    }
}

/// The package's root: `dir`, or the one directory in it that holds
/// `contest.json` (an archive packed with its folder).
fn package_root(dir: &Path) -> anyhow::Result<PathBuf> {
    if dir.join("contest.json").is_file() || dir.join("contest.yaml").is_file() {
        return Ok(dir.to_path_buf());
    }
    let inner: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("reading {}", dir.display()))?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("contest.json").is_file() || p.join("contest.yaml").is_file())
        .collect();
    match &inner[..] {
        [one] => Ok(one.clone()),
        _ => bail!(
            "{}: no contest.json: not a CLICS contest package",
            dir.display()
        ),
    }
}

/// The files of a ZIP archive, by their names, within bounds.
fn read_zip(bytes: &[u8]) -> anyhow::Result<Files> {
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes))
        .context("the submission's files are not a ZIP archive")?;
    if archive.len() > FILES_ENTRIES {
        bail!("the submission's archive holds more than {FILES_ENTRIES} entries");
    }
    let mut files = Vec::new();
    let mut total = 0u64;
    for i in 0..archive.len() {
        let mut entry = archive
            .by_index(i)
            .context("reading the submission's archive")?;
        if entry.is_dir() {
            continue;
        }
        let name = entry
            .name()
            .map(|n| n.to_string())
            .context("a name in the submission's archive")?;
        let mut data = Vec::new();
        (&mut entry)
            .take(FILES_BYTES + 1 - total)
            .read_to_end(&mut data)
            .with_context(|| format!("reading {name} of the submission's archive"))?;
        total += data.len() as u64;
        if total > FILES_BYTES {
            bail!("the submission's files exceed {} MiB", FILES_BYTES >> 20);
        }
        files.push((name, data));
    }
    Ok(files)
}

/// The files of a directory (a package's `files/`), by their paths in it.
fn read_dir(dir: &Path) -> anyhow::Result<Files> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).with_context(|| format!("reading {}", d.display()))? {
            let path = entry?.path();
            let meta = std::fs::symlink_metadata(&path)?;
            if meta.is_dir() {
                stack.push(path);
            } else if meta.is_file() {
                let name = path
                    .strip_prefix(dir)
                    .unwrap_or(&path)
                    .display()
                    .to_string();
                files.push((name, std::fs::read(&path)?));
            }
            if files.len() > FILES_ENTRIES {
                bail!("{}: more than {FILES_ENTRIES} files", dir.display());
            }
        }
    }
    files.sort();
    Ok(files)
}

/// Whether `a` and `b` have one scheme, host and port.
fn same_origin(a: &str, b: &str) -> bool {
    match (url::Url::parse(a), url::Url::parse(b)) {
        (Ok(a), Ok(b)) => a.origin() == b.origin(),
        _ => false,
    }
}

/// `text` with `%XX` escapes decoded (a URL's user and password).
fn percent_decoded(text: &str) -> String {
    url::form_urlencoded::parse(format!("x={}", text.replace('+', "%2B")).as_bytes())
        .next()
        .map(|(_, v)| v.into_owned())
        .unwrap_or_default()
}

/// `text` escaped for a query.
fn encoded(text: &str) -> String {
    url::form_urlencoded::byte_serialize(text.as_bytes()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn credentials_go_only_to_the_sources_own_origin() {
        let base = "https://primary.example:8443/api/contests/wf";
        assert!(same_origin(
            base,
            "https://primary.example:8443/api/contests/wf/submissions/1/files"
        ));
        assert!(!same_origin(base, "https://elsewhere.example/files"));
        assert!(!same_origin(base, "http://primary.example:8443/api"));
        assert!(!same_origin(base, "https://primary.example/api"));
    }

    #[test]
    fn a_url_names_the_contest_and_its_user_and_password_become_basic_credentials() {
        let Source::Api {
            base,
            root,
            authorization,
            ..
        } = Source::open("https://jury:p%40ss@primary.example/api/contests/wf/", None).unwrap()
        else {
            panic!("an API");
        };
        assert_eq!(base, "https://primary.example/api/contests/wf");
        assert_eq!(root, "https://primary.example/api/");
        use base64::Engine as _;
        let expected = base64::engine::general_purpose::STANDARD.encode("jury:p@ss");
        assert_eq!(authorization, Some(format!("Basic {expected}")));
        let err = Source::open("https://primary.example/api/contests", None).unwrap_err();
        assert!(err.to_string().contains("…/api/contests/ID"), "{err}");
    }
}
