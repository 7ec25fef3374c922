//! apimachinery's `CompareKubeAwareVersionStrings`: how discovery orders a custom group's
//! versions (GA before beta before alpha, then by major, then minor; versions not of the
//! `v1beta2` shape after all others, in string order).

use std::cmp::Ordering;

/// `(major, stage, minor)` of a Kubernetes-shaped version: stage 2 GA, 1 beta, 0 alpha.
fn parse(v: &str) -> Option<(u64, u8, u64)> {
    let rest = v.strip_prefix('v')?;
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    let major: u64 = rest[..digits].parse().ok()?;
    let tail = &rest[digits..];
    if tail.is_empty() {
        return Some((major, 2, 0));
    }
    let (stage, minor) = if let Some(m) = tail.strip_prefix("beta") {
        (1, m)
    } else if let Some(m) = tail.strip_prefix("alpha") {
        (0, m)
    } else {
        return None;
    };
    if minor.is_empty() || !minor.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((major, stage, minor.parse().ok()?))
}

/// Orders versions as discovery lists them: the preferred (greatest) first.
pub fn discovery_order(a: &str, b: &str) -> Ordering {
    match (parse(a), parse(b)) {
        (Some((ma, sa, na)), Some((mb, sb, nb))) => sb.cmp(&sa).then(mb.cmp(&ma)).then(nb.cmp(&na)),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => a.cmp(b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kube_aware_order() {
        let mut vs = vec![
            "v1alpha1",
            "foo",
            "v1beta1",
            "v2",
            "v1",
            "v1beta2",
            "v11alpha2",
            "bar",
            "v12",
        ];
        vs.sort_by(|a, b| discovery_order(a, b));
        assert_eq!(
            vs,
            [
                "v12",
                "v2",
                "v1",
                "v1beta2",
                "v1beta1",
                "v11alpha2",
                "v1alpha1",
                "bar",
                "foo"
            ]
        );
    }
}
