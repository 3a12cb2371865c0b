//! Where a request comes from, as every per-address limit counts it: the
//! event feeds open at once, failed sign-ins, and the share of the
//! password hashers. One [`Place`] is an IPv4 address, or the /64 network
//! of an IPv6 one: one host commonly holds a whole /64, so counting single
//! IPv6 addresses would let it pass any limit by changing its address. An
//! IPv4 address written as IPv6 (`::ffff:a.b.c.d`) is that IPv4 address.
//!
//! A limit keyed by a bare `IpAddr` cannot be built by mistake: the limits
//! take a [`Place`], and [`Place::of`] is the only way to make one.

use std::net::IpAddr;

/// The unit a per-address limit counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Place(IpAddr);

impl Place {
    /// The place of `address`.
    pub fn of(address: IpAddr) -> Place {
        Place(match address {
            IpAddr::V4(_) => address,
            IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
                Some(v4) => IpAddr::V4(v4),
                None => IpAddr::V6((u128::from(v6) & !u128::from(u64::MAX)).into()),
            },
        })
    }

    /// The place of the client a request came from (the address the
    /// server recorded on accepting its connection), if known.
    pub fn of_request(extensions: &axum::http::Extensions) -> Option<Place> {
        extensions
            .get::<axum::extract::ConnectInfo<std::net::SocketAddr>>()
            .map(|c| Place::of(c.0.ip()))
    }
}

impl std::fmt::Display for Place {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            IpAddr::V4(a) => write!(f, "{a}"),
            IpAddr::V6(a) => write!(f, "{a}/64"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn place(text: &str) -> Place {
        Place::of(text.parse().expect("an address"))
    }

    #[test]
    fn an_ipv6_64_is_one_place_and_ipv4_is_itself() {
        assert_eq!(place("2001:db8::1"), place("2001:db8::ffff:1:2"));
        assert_eq!(place("2001:db8::1").to_string(), "2001:db8::/64");
        assert_ne!(place("2001:db8::1"), place("2001:db8:0:1::1"));
        assert_ne!(place("192.0.2.1"), place("192.0.2.2"));
        assert_eq!(place("::ffff:192.0.2.7"), place("192.0.2.7"));
        assert_eq!(place("192.0.2.7").to_string(), "192.0.2.7");
    }
}
