//! Who a team comes from: its organization (a university, a school) and
//! the groups it is in (a site, a division, "first-year teams"), as the
//! CLICS Contest API has them; and the colour of each problem's balloon.
//! Read from the files a registration system or another contest system
//! writes: the CLICS `organizations.json`, `groups.json` and `teams.json`
//! (arrays of the API's objects), a contest's `problems.json` or
//! `problemset.yaml`, or one CSV sheet with a header row.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::color::parse_rgb;

/// An organization, as the API sends it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Organization {
    pub id: String,
    pub name: String,
    pub formal_name: String,
    /// ISO 3166-1 alpha-3, upper case.
    pub country: Option<String>,
    /// Its id in the ICPC's registration system, where given.
    pub icpc_id: Option<String>,
}

/// A group of teams.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group {
    pub id: String,
    pub name: String,
    /// Its id in the ICPC's registration system, where given.
    pub icpc_id: Option<String>,
}

/// One team's organization and groups. `keys`: the names to find its
/// account by, in order (a CLICS team's `id`, then its `name`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Membership {
    pub keys: Vec<String>,
    pub organization: Option<String>,
    pub groups: Vec<String>,
    /// The team's id as its registration gave it (a CLICS team's `id`, a
    /// sheet's `team_id`): the id the API shows for it from then on.
    pub team_id: Option<String>,
    /// Its id in the ICPC's registration system, where given.
    pub icpc_id: Option<String>,
    /// Whether it is hidden from the board; `None`: as it is.
    pub hidden: Option<bool>,
}

/// What one import brings: organizations and groups to add or update, and
/// teams whose organization and groups are set to these.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Affiliations {
    pub organizations: Vec<Organization>,
    pub groups: Vec<Group>,
    pub teams: Vec<Membership>,
}

/// Whether `id` is an id as the standard allows them: letters, digits,
/// `_`, `.`, `-`, not starting with `.` or `-`, at most 36 characters.
pub fn valid_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 36
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'))
        && !id.starts_with(['.', '-'])
}

/// An id made of a display name: `"Université de Nîmes"` is
/// `universit-de-n-mes`, lower-case letters and digits joined by `-`.
fn id_of(name: &str) -> Option<String> {
    let mut id = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            id.push(c.to_ascii_lowercase());
        } else if !id.is_empty() && !id.ends_with('-') {
            id.push('-');
        }
    }
    let id = id.trim_end_matches('-');
    let id: String = id.chars().take(36).collect();
    let id = id.trim_end_matches('-').to_string();
    valid_id(&id).then_some(id)
}

/// Property `key` of a CLICS object as text: ids may come as strings or
/// numbers; `null` and absent are `None`.
fn text(o: &Value, key: &str) -> Option<String> {
    match &o[key] {
        Value::String(s) if !s.trim().is_empty() => Some(s.trim().to_string()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

fn checked_id(what: &str, at: usize, id: Option<String>) -> Result<String, String> {
    let id = id.ok_or_else(|| format!("{what} {}: no \"id\"", at + 1))?;
    if valid_id(&id) {
        Ok(id)
    } else {
        Err(format!(
            "{what} {}: id {id:?}: use up to 36 letters, digits, '_', '.' and '-'",
            at + 1
        ))
    }
}

fn country(at: &str, c: Option<String>) -> Result<Option<String>, String> {
    match c {
        None => Ok(None),
        Some(c) if c.len() == 3 && c.bytes().all(|b| b.is_ascii_alphabetic()) => {
            Ok(Some(c.to_ascii_uppercase()))
        }
        Some(c) => Err(format!(
            "{at}: country {c:?}: use the three-letter ISO 3166-1 code (NLD, JPN, ...)"
        )),
    }
}

impl Affiliations {
    /// Adds what the CLICS file `name` (`organizations.json`,
    /// `groups.json` or `teams.json`, by its file name) holds.
    ///
    /// # Errors
    /// One line naming the file, the entry and what is wrong.
    pub fn add_clics(&mut self, name: &str, body: &str) -> Result<(), String> {
        let list: Vec<Value> = serde_json::from_str(body)
            .map_err(|e| format!("{name}: not a JSON array of objects: {e}"))?;
        let kind = name.rsplit('/').next().unwrap_or(name);
        match kind {
            "organizations.json" => {
                for (i, o) in list.iter().enumerate() {
                    let id = checked_id(&format!("{name}: organization"), i, text(o, "id"))?;
                    let display = text(o, "name")
                        .ok_or_else(|| format!("{name}: organization {id}: no \"name\""))?;
                    self.organizations.push(Organization {
                        formal_name: text(o, "formal_name").unwrap_or_else(|| display.clone()),
                        country: country(
                            &format!("{name}: organization {id}"),
                            text(o, "country"),
                        )?,
                        icpc_id: text(o, "icpc_id"),
                        name: display,
                        id,
                    });
                }
            }
            "groups.json" => {
                for (i, o) in list.iter().enumerate() {
                    let id = checked_id(&format!("{name}: group"), i, text(o, "id"))?;
                    let display = text(o, "name")
                        .ok_or_else(|| format!("{name}: group {id}: no \"name\""))?;
                    self.groups.push(Group {
                        icpc_id: text(o, "icpc_id"),
                        id,
                        name: display,
                    });
                }
            }
            "teams.json" => {
                for (i, o) in list.iter().enumerate() {
                    let id = checked_id(&format!("{name}: team"), i, text(o, "id"))?;
                    let hidden = match &o["hidden"] {
                        Value::Null => None,
                        Value::Bool(b) => Some(*b),
                        _ => {
                            return Err(format!(
                                "{name}: team {id}: \"hidden\" is not true or false"
                            ))
                        }
                    };
                    let mut keys = vec![id.clone()];
                    keys.extend(text(o, "name"));
                    let groups = match &o["group_ids"] {
                        Value::Null => Vec::new(),
                        Value::Array(ids) => ids
                            .iter()
                            .map(|g| {
                                text(&serde_json::json!({ "g": g }), "g").ok_or_else(|| {
                                    format!("{name}: team {}: a group id that is not text", keys[0])
                                })
                            })
                            .collect::<Result<_, _>>()?,
                        _ => {
                            return Err(format!(
                                "{name}: team {}: \"group_ids\" is not an array",
                                keys[0]
                            ))
                        }
                    };
                    self.teams.push(Membership {
                        organization: text(o, "organization_id"),
                        groups,
                        keys,
                        team_id: Some(id),
                        icpc_id: text(o, "icpc_id"),
                        hidden,
                    });
                }
            }
            _ => {
                return Err(format!(
                    "{name}: expected organizations.json, groups.json, teams.json or a .csv sheet"
                ))
            }
        }
        Ok(())
    }

    /// Adds the teams of a CSV sheet with a header row: `team` (the account
    /// name, required), `team_id` (the team's id from its registration),
    /// `icpc_id`, `hidden` (`true`/`false`, `yes`/`no`, `1`/`0`),
    /// `organization` (its name; its id is made of it unless an
    /// `organization_id` column gives one), `organization_icpc_id`,
    /// `formal_name`, `country`, and `groups` (names separated by `;`, each
    /// one's id made of its name). Organizations and groups named there are
    /// created.
    ///
    /// # Errors
    /// One line naming the file, the row and what is wrong.
    pub fn add_csv(&mut self, name: &str, body: &str) -> Result<(), String> {
        let mut reader = csv::ReaderBuilder::new()
            .trim(csv::Trim::All)
            .flexible(false)
            .from_reader(body.as_bytes());
        let header: Vec<String> = reader
            .headers()
            .map_err(|e| format!("{name}: {e}"))?
            .iter()
            .map(str::to_ascii_lowercase)
            .collect();
        let column = |c: &str| header.iter().position(|h| h == c);
        let known = [
            "team",
            "team_id",
            "icpc_id",
            "hidden",
            "organization",
            "organization_icpc_id",
            "organization_id",
            "formal_name",
            "country",
            "groups",
        ];
        if let Some(other) = header.iter().find(|h| !known.contains(&h.as_str())) {
            return Err(format!(
                "{name}: unknown column {other:?}; the columns are {}",
                known.join(", ")
            ));
        }
        let team = column("team").ok_or_else(|| format!("{name}: no \"team\" column"))?;
        let mut organizations: BTreeMap<String, Organization> = BTreeMap::new();
        let mut groups: BTreeMap<String, Group> = BTreeMap::new();
        for (row, record) in reader.records().enumerate() {
            let line = row + 2;
            let record = record.map_err(|e| format!("{name}: line {line}: {e}"))?;
            let cell = |c: Option<usize>| {
                c.and_then(|c| record.get(c))
                    .filter(|v| !v.is_empty())
                    .map(String::from)
            };
            let account =
                cell(Some(team)).ok_or_else(|| format!("{name}: line {line}: no team"))?;
            let organization = match cell(column("organization")) {
                Some(org) => {
                    let id = match cell(column("organization_id")) {
                        Some(id) if valid_id(&id) => id,
                        Some(id) => {
                            return Err(format!(
                                "{name}: line {line}: organization id {id:?}: use up to 36 letters, digits, '_', '.' and '-'"
                            ))
                        }
                        None => id_of(&org).ok_or_else(|| {
                            format!("{name}: line {line}: organization {org:?} has no letter or digit to make an id of; give organization_id")
                        })?,
                    };
                    let o = Organization {
                        id: id.clone(),
                        formal_name: cell(column("formal_name")).unwrap_or_else(|| org.clone()),
                        country: country(&format!("{name}: line {line}"), cell(column("country")))?,
                        icpc_id: cell(column("organization_icpc_id")),
                        name: org,
                    };
                    if let Some(seen) = organizations.get(&id) {
                        if *seen != o {
                            return Err(format!(
                                "{name}: line {line}: organization {id} differs from an earlier line's"
                            ));
                        }
                    }
                    organizations.insert(id.clone(), o);
                    Some(id)
                }
                None => None,
            };
            let mut ids = Vec::new();
            for g in cell(column("groups"))
                .unwrap_or_default()
                .split(';')
                .map(str::trim)
                .filter(|g| !g.is_empty())
            {
                let id = id_of(g).ok_or_else(|| {
                    format!(
                        "{name}: line {line}: group {g:?} has no letter or digit to make an id of"
                    )
                })?;
                groups.insert(
                    id.clone(),
                    Group {
                        id: id.clone(),
                        name: g.to_string(),
                        icpc_id: None,
                    },
                );
                ids.push(id);
            }
            let team_id = match cell(column("team_id")) {
                Some(id) if valid_id(&id) => Some(id),
                Some(id) => {
                    return Err(format!(
                        "{name}: line {line}: team id {id:?}: use up to 36 letters, digits, '_', '.' and '-'"
                    ))
                }
                None => None,
            };
            let hidden = match cell(column("hidden")).map(|h| h.to_ascii_lowercase()) {
                None => None,
                Some(h) if matches!(h.as_str(), "true" | "yes" | "1") => Some(true),
                Some(h) if matches!(h.as_str(), "false" | "no" | "0") => Some(false),
                Some(h) => {
                    return Err(format!(
                        "{name}: line {line}: hidden {h:?}: use true or false"
                    ))
                }
            };
            let mut keys = Vec::from_iter(team_id.clone());
            keys.push(account);
            self.teams.push(Membership {
                keys,
                organization,
                groups: ids,
                team_id,
                icpc_id: cell(column("icpc_id")),
                hidden,
            });
        }
        self.organizations.extend(organizations.into_values());
        self.groups.extend(groups.into_values());
        Ok(())
    }

    /// Checks what was read as a whole: every name within its bound
    /// ([`crate::bounds`]), no id twice with different contents, no team
    /// twice.
    ///
    /// # Errors
    /// One line naming the clash.
    pub fn check(&self) -> Result<(), String> {
        use crate::bounds::Field;
        for o in &self.organizations {
            Field::OrganizationName
                .check(&o.name)
                .and_then(|()| Field::OrganizationFormalName.check(&o.formal_name))
                .map_err(|e| format!("organization {}: {e}", o.id))?;
        }
        for g in &self.groups {
            Field::GroupName
                .check(&g.name)
                .map_err(|e| format!("group {}: {e}", g.id))?;
        }
        let mut orgs: BTreeMap<&str, &Organization> = BTreeMap::new();
        for o in &self.organizations {
            if orgs.insert(&o.id, o).is_some_and(|seen| seen != o) {
                return Err(format!("organization {} is given twice, differently", o.id));
            }
        }
        let mut groups: BTreeMap<&str, &Group> = BTreeMap::new();
        for g in &self.groups {
            if groups.insert(&g.id, g).is_some_and(|seen| seen != g) {
                return Err(format!("group {} is given twice, differently", g.id));
            }
        }
        let mut teams = std::collections::BTreeSet::new();
        for t in &self.teams {
            if !teams.insert(&t.keys[0]) {
                return Err(format!("team {} is given twice", t.keys[0]));
            }
        }
        Ok(())
    }
}

/// Balloon colours by problem, read from a contest's CLICS
/// `problems.json` (objects with `label` or `id`, and `rgb`), its
/// `problemset.yaml` (`problems:` with `letter` or `short-name`, and
/// `rgb`), or a CSV sheet with columns `problem` (a label or a slug) and
/// `rgb`. Keys are as written: the caller matches them to labels or slugs.
///
/// # Errors
/// One line naming the file and the entry.
pub fn read_colors(name: &str, body: &str) -> Result<Vec<(String, String)>, String> {
    let mut out = Vec::new();
    let mut push = |key: Option<String>, rgb: Option<String>, at: usize| -> Result<(), String> {
        let key = key.ok_or_else(|| format!("{name}: problem {}: no label or id", at + 1))?;
        let Some(rgb) = rgb else {
            return Ok(());
        };
        let rgb = parse_rgb(&rgb).map_err(|e| format!("{name}: problem {key}: {e}"))?;
        out.push((key, rgb));
        Ok(())
    };
    if name.ends_with(".json") {
        let list: Vec<Value> = serde_json::from_str(body)
            .map_err(|e| format!("{name}: not a JSON array of problems: {e}"))?;
        for (i, p) in list.iter().enumerate() {
            push(
                text(p, "label").or_else(|| text(p, "id")),
                text(p, "rgb"),
                i,
            )?;
        }
    } else if name.ends_with(".yaml") || name.ends_with(".yml") {
        let doc: serde_yaml_ng::Value =
            serde_yaml_ng::from_str(body).map_err(|e| format!("{name}: not YAML: {e}"))?;
        let list = doc
            .get("problems")
            .and_then(|p| p.as_sequence())
            .ok_or_else(|| format!("{name}: no \"problems\" list"))?;
        let field = |p: &serde_yaml_ng::Value, k: &str| match p.get(k) {
            Some(serde_yaml_ng::Value::String(s)) => Some(s.clone()),
            Some(serde_yaml_ng::Value::Number(n)) => Some(n.to_string()),
            _ => None,
        };
        for (i, p) in list.iter().enumerate() {
            push(
                field(p, "letter")
                    .or_else(|| field(p, "label"))
                    .or_else(|| field(p, "short-name")),
                field(p, "rgb"),
                i,
            )?;
        }
    } else if name.ends_with(".csv") {
        let mut reader = csv::ReaderBuilder::new()
            .trim(csv::Trim::All)
            .from_reader(body.as_bytes());
        let header: Vec<String> = reader
            .headers()
            .map_err(|e| format!("{name}: {e}"))?
            .iter()
            .map(str::to_ascii_lowercase)
            .collect();
        let (Some(p), Some(c)) = (
            header.iter().position(|h| h == "problem"),
            header.iter().position(|h| h == "rgb"),
        ) else {
            return Err(format!("{name}: the columns are problem and rgb"));
        };
        for (i, record) in reader.records().enumerate() {
            let record = record.map_err(|e| format!("{name}: line {}: {e}", i + 2))?;
            let cell = |k: usize| record.get(k).filter(|v| !v.is_empty()).map(String::from);
            push(cell(p), cell(c), i)?;
        }
    } else {
        return Err(format!(
            "{name}: expected a CLICS problems.json, a problemset.yaml or a .csv sheet"
        ));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clics_files_read_into_organizations_groups_and_teams() {
        let mut a = Affiliations::default();
        a.add_clics(
            "organizations.json",
            r#"[{"id":"uva","name":"UvA","formal_name":"Universiteit van Amsterdam","country":"nld","logo":[]},
                {"id":7,"name":"Seven"}]"#,
        )
        .unwrap();
        a.add_clics(
            "groups.json",
            r#"[{"id":"div1","name":"Division 1","type":"x"}]"#,
        )
        .unwrap();
        a.add_clics(
            "teams.json",
            r#"[{"id":"team01","name":"The Heaps","organization_id":"uva","group_ids":["div1"]},
                {"id":2,"name":"bob","organization_id":null}]"#,
        )
        .unwrap();
        a.check().unwrap();
        assert_eq!(a.organizations[0].country.as_deref(), Some("NLD"));
        assert_eq!(a.organizations[1].id, "7");
        assert_eq!(a.organizations[1].formal_name, "Seven");
        assert_eq!(a.teams[0].keys, ["team01", "The Heaps"]);
        assert_eq!(a.teams[0].groups, ["div1"]);
        assert_eq!(a.teams[1].organization, None);
    }

    #[test]
    fn bad_clics_entries_are_one_line_naming_them() {
        let mut a = Affiliations::default();
        let e = a
            .add_clics("organizations.json", r#"[{"id":"-x","name":"X"}]"#)
            .unwrap_err();
        assert!(e.contains("organization 1") && e.contains("\"-x\""), "{e}");
        let e = a.add_clics("groups.json", r#"{"id":"g"}"#).unwrap_err();
        assert!(e.starts_with("groups.json: not a JSON array"), "{e}");
        let e = a
            .add_clics(
                "organizations.json",
                r#"[{"id":"x","name":"X","country":"Netherlands"}]"#,
            )
            .unwrap_err();
        assert!(e.contains("three-letter"), "{e}");
        let e = a.add_clics("accounts.json", "[]").unwrap_err();
        assert!(e.contains("expected organizations.json"), "{e}");
        assert!(!e.contains('\n'));
    }

    #[test]
    fn a_csv_sheet_makes_ids_of_names_and_refuses_unknown_columns() {
        let mut a = Affiliations::default();
        a.add_csv(
            "teams.csv",
            "team,organization,country,groups\n\
             bob,\"Université de Nîmes, Campus\",FRA,Division 1; First-years\n\
             cid,\"Université de Nîmes, Campus\",FRA,Division 1\n\
             dan,,,\n",
        )
        .unwrap();
        a.check().unwrap();
        assert_eq!(a.organizations.len(), 1);
        assert_eq!(a.organizations[0].id, "universit-de-n-mes-campus");
        assert_eq!(a.organizations[0].name, "Université de Nîmes, Campus");
        assert_eq!(a.teams[0].groups, ["division-1", "first-years"]);
        assert_eq!(a.teams[2].organization, None);
        assert!(a.teams[2].groups.is_empty());
        assert_eq!(a.groups.len(), 2);
        let e = Affiliations::default()
            .add_csv("t.csv", "team,school\nbob,X\n")
            .unwrap_err();
        assert!(e.contains("unknown column \"school\""), "{e}");
        let mut twice = Affiliations::default();
        twice.add_csv("t.csv", "team\nbob\nbob\n").unwrap();
        assert_eq!(twice.check().unwrap_err(), "team bob is given twice");
    }

    #[test]
    fn team_ids_icpc_ids_and_hidden_are_read_from_the_files_and_the_sheet() {
        let mut a = Affiliations::default();
        a.add_clics(
            "organizations.json",
            r#"[{"id":"uva","name":"UvA","icpc_id":1881}]"#,
        )
        .unwrap();
        a.add_clics("groups.json", r#"[{"id":"d1","name":"D1","icpc_id":"g7"}]"#)
            .unwrap();
        a.add_clics(
            "teams.json",
            r#"[{"id":"wf-1","name":"ann","icpc_id":4711,"hidden":true},{"id":"wf-2"}]"#,
        )
        .unwrap();
        assert_eq!(a.organizations[0].icpc_id.as_deref(), Some("1881"));
        assert_eq!(a.groups[0].icpc_id.as_deref(), Some("g7"));
        assert_eq!(a.teams[0].team_id.as_deref(), Some("wf-1"));
        assert_eq!(a.teams[0].icpc_id.as_deref(), Some("4711"));
        assert_eq!((a.teams[0].hidden, a.teams[1].hidden), (Some(true), None));
        let e = Affiliations::default()
            .add_clics("teams.json", r#"[{"id":"x","hidden":"yes"}]"#)
            .unwrap_err();
        assert!(e.contains("team x") && e.contains("hidden"), "{e}");
        let mut sheet = Affiliations::default();
        sheet
            .add_csv(
                "t.csv",
                "team,team_id,icpc_id,hidden,organization,organization_icpc_id\n\
                 bob,wf-bob,17,yes,UvA,1881\n\
                 cid,,,no,,\n",
            )
            .unwrap();
        assert_eq!(sheet.teams[0].keys, ["wf-bob", "bob"]);
        assert_eq!(sheet.teams[0].team_id.as_deref(), Some("wf-bob"));
        assert_eq!(sheet.teams[0].icpc_id.as_deref(), Some("17"));
        assert_eq!(sheet.teams[0].hidden, Some(true));
        assert_eq!(sheet.teams[1].hidden, Some(false));
        assert_eq!(sheet.teams[1].team_id, None);
        assert_eq!(sheet.organizations[0].icpc_id.as_deref(), Some("1881"));
        let e = Affiliations::default()
            .add_csv("t.csv", "team,hidden\nbob,maybe\n")
            .unwrap_err();
        assert!(e.contains("line 2") && e.contains("hidden"), "{e}");
    }

    #[test]
    fn colours_are_read_from_each_format() {
        assert_eq!(
            read_colors(
                "problems.json",
                r##"[{"id":"nim","label":"A","rgb":"#f00"},{"id":"x","label":"B"}]"##
            )
            .unwrap(),
            [("A".to_string(), "#ff0000".to_string())]
        );
        assert_eq!(
            read_colors(
                "problemset.yaml",
                "problems:\n  - letter: A\n    short-name: nim\n    rgb: '#00ff00'\n    color: green\n"
            )
            .unwrap(),
            [("A".to_string(), "#00ff00".to_string())]
        );
        assert_eq!(
            read_colors("c.csv", "problem,rgb\nnim,#0000ff\n").unwrap(),
            [("nim".to_string(), "#0000ff".to_string())]
        );
        assert!(read_colors("c.csv", "problem,rgb\nnim,blue\n")
            .unwrap_err()
            .contains("problem nim"));
    }
}
