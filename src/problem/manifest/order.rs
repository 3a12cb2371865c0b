//! The groups of `[[groups]]`: their names, each test's group, and the
//! judging order (every group after the groups it depends on; a cycle is
//! refused, naming it).

use std::collections::{BTreeMap, BTreeSet};

use super::raw::RawGroup;
use super::{valid_name, Group, GroupSpec, TestCase};

/// The declared groups by name, each checked alone: a valid, unique name
/// and points; the points sum to 100.
pub(super) fn declared_groups(groups: &[RawGroup]) -> Result<BTreeMap<String, usize>, String> {
    if groups.is_empty() {
        return Err("groups: an empty list; leave [[groups]] out for a problem without".into());
    }
    let mut declared = BTreeMap::new();
    for (i, g) in groups.iter().enumerate() {
        let at = format!("groups[{i}] ({})", g.name);
        if !valid_name(&g.name) {
            return Err(format!("{at}: name must be 1-64 characters of [a-z0-9._-]"));
        }
        if declared.insert(g.name.clone(), i).is_some() {
            return Err(format!("{at}: duplicate group name {}", g.name));
        }
    }
    let total: u64 = groups.iter().map(|g| u64::from(g.points)).sum();
    if total != 100 {
        let list: Vec<String> = groups
            .iter()
            .map(|g| format!("{} {}", g.name, g.points))
            .collect();
        return Err(format!(
            "groups: points sum to {total} ({}), not 100",
            list.join(" + ")
        ));
    }
    Ok(declared)
}

/// A test's group: without `[[groups]]`, `sample` or `secret` (the
/// default); with them, a declared group or `sample`.
pub(super) fn test_group(
    name: Option<&str>,
    declared: Option<&BTreeMap<String, usize>>,
) -> Result<Group, String> {
    match (name, declared) {
        (None, None) => Ok(Group::secret()),
        (Some(name), None) if name == "sample" || name == "secret" => Ok(Group(name.into())),
        (Some(name), None) => Err(format!(
            "group {name:?} is not declared (without [[groups]], a test is \"sample\" or \"secret\")"
        )),
        (None, Some(_)) => Err("group: with [[groups]], every test names its group".into()),
        (Some(name), Some(declared)) if name == "sample" || declared.contains_key(name) => {
            Ok(Group(name.into()))
        }
        (Some(name), Some(declared)) => {
            let known: Vec<&str> = declared.keys().map(String::as_str).collect();
            Err(format!(
                "group {name:?} is not declared in [[groups]] (declared: {})",
                known.join(", ")
            ))
        }
    }
}

/// The groups in judging order: `sample` first (a 0-point group when not
/// declared), then every group after the groups it depends on, otherwise
/// in the manifest's order. Checks the dependencies (known names, no
/// cycle) and that every group has a test.
pub(super) fn judging_order(
    raw: &[RawGroup],
    declared: &BTreeMap<String, usize>,
    tests: &[TestCase],
) -> Result<Vec<GroupSpec>, String> {
    let mut specs: Vec<GroupSpec> = Vec::new();
    let implicit_sample =
        !declared.contains_key("sample") && tests.iter().any(|t| t.group.is_sample());
    if implicit_sample {
        specs.push(GroupSpec {
            name: Group::sample(),
            points: 0,
            depends: Vec::new(),
        });
    }
    for (i, g) in raw.iter().enumerate() {
        let at = format!("groups[{i}] ({})", g.name);
        let mut depends = Vec::new();
        for d in &g.depends {
            if *d == g.name {
                return Err(format!("{at}: depends on itself"));
            }
            let known = declared.contains_key(d) || (d == "sample" && implicit_sample);
            if !known {
                return Err(format!("{at}: depends on {d:?}, which is not a group"));
            }
            if depends.iter().any(|x: &Group| x.as_str() == d) {
                return Err(format!("{at}: depends on {d:?} twice"));
            }
            depends.push(Group(d.clone()));
        }
        if !tests.iter().any(|t| t.group.as_str() == g.name) {
            return Err(format!("{at}: no test is in this group"));
        }
        specs.push(GroupSpec {
            name: Group(g.name.clone()),
            points: g.points,
            depends,
        });
    }
    // Kahn's algorithm, always taking the first ready group in manifest
    // order, so the order is stable and dependencies come first.
    let mut order = Vec::with_capacity(specs.len());
    let mut placed = BTreeSet::new();
    while order.len() < specs.len() {
        let ready = specs.iter().find(|s| {
            !placed.contains(s.name.as_str())
                && s.depends.iter().all(|d| placed.contains(d.as_str()))
        });
        match ready {
            Some(s) => {
                placed.insert(s.name.as_str());
                order.push(s.clone());
            }
            None => {
                return Err(format!(
                    "groups: a dependency cycle: {}",
                    cycle(&specs, &placed)
                ))
            }
        }
    }
    Ok(order)
}

/// A cycle among the groups not yet placed (each of which waits for an
/// unplaced dependency), as `a -> b -> a`.
fn cycle(specs: &[GroupSpec], placed: &BTreeSet<&str>) -> String {
    let waiting = |name: &str| {
        specs
            .iter()
            .find(|s| s.name.as_str() == name)
            .and_then(|s| s.depends.iter().find(|d| !placed.contains(d.as_str())))
            .map(|d| d.as_str().to_string())
    };
    let mut path: Vec<String> = Vec::new();
    let mut at = specs
        .iter()
        .find(|s| !placed.contains(s.name.as_str()))
        .map(|s| s.name.as_str().to_string());
    while let Some(name) = at {
        if let Some(start) = path.iter().position(|p| *p == name) {
            let mut names = path.split_off(start);
            names.push(name);
            return names.join(" -> ");
        }
        at = waiting(&name);
        path.push(name);
    }
    path.join(" -> ")
}
