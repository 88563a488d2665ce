//! Per-client limits: a client is an IP address, and it may have at most
//! [`MAX_CLIENT_REQUESTS`] requests in the server at once and hold at most
//! [`MAX_CLIENT_WORKERS`] workers.
//!
//! A handler that will read a body or start work first admits its request
//! ([`Clients::admit`]), before it reads the body: a client over its limit gets a 503 with
//! `Retry-After` at once, so a few addresses cannot reserve the whole memory budget with
//! large bodies sent slowly, nor fill the wait for workers (the lanes count one waiting
//! request per client: see [`lanes`](super::lanes)). The ticket, [`Client`], is given back
//! when the handler ends.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::Semaphore;

use super::error::ApiError;
use super::limits::{MAX_CLIENT_REQUESTS, MAX_CLIENT_WORKERS};

/// One client's requests in the server, and the workers it may hold.
#[derive(Debug)]
struct Entry {
    requests: usize,
    workers: Arc<Semaphore>,
}

type Table = Arc<Mutex<HashMap<IpAddr, Entry>>>;

/// The clients with requests in the server (an entry lives while its client has one).
#[derive(Debug, Default)]
pub struct Clients {
    table: Table,
}

/// One admitted request of a client: counted until dropped.
#[derive(Debug)]
pub struct Client {
    ip: IpAddr,
    workers: Arc<Semaphore>,
    table: Table,
}

fn lock(table: &Table) -> MutexGuard<'_, HashMap<IpAddr, Entry>> {
    // Counts only: consistent whatever panicked while holding the lock.
    table.lock().unwrap_or_else(|e| e.into_inner())
}

impl Clients {
    /// Admits a request from `ip` (an IPv4 address mapped into IPv6 counts as itself), or
    /// refuses it with a 503 and `Retry-After` when the client has
    /// [`MAX_CLIENT_REQUESTS`] in the server already.
    pub fn admit(&self, ip: IpAddr) -> Result<Client, ApiError> {
        let ip = ip.to_canonical();
        let mut table = lock(&self.table);
        let entry = table.entry(ip).or_insert_with(|| Entry {
            requests: 0,
            workers: Arc::new(Semaphore::new(MAX_CLIENT_WORKERS)),
        });
        if entry.requests >= MAX_CLIENT_REQUESTS {
            return Err(ApiError::busy(format_args!(
                "{ip} has {MAX_CLIENT_REQUESTS} requests in progress, the most one client may have at once"
            )));
        }
        entry.requests += 1;
        Ok(Client {
            ip,
            workers: entry.workers.clone(),
            table: self.table.clone(),
        })
    }

    /// Clients with requests in the server now.
    #[cfg(test)]
    fn len(&self) -> usize {
        lock(&self.table).len()
    }
}

impl Client {
    /// The client's address (IPv4 as itself).
    pub(super) fn ip(&self) -> IpAddr {
        self.ip
    }

    /// The workers this client may hold ([`MAX_CLIENT_WORKERS`] permits, shared by its
    /// requests).
    pub(super) fn workers(&self) -> Arc<Semaphore> {
        self.workers.clone()
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let mut table = lock(&self.table);
        if let Some(entry) = table.get_mut(&self.ip) {
            entry.requests -= 1;
            if entry.requests == 0 {
                table.remove(&self.ip);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::StatusCode;

    #[test]
    fn a_client_over_its_limit_is_refused_and_others_are_not() {
        let clients = Clients::default();
        let a: IpAddr = "127.0.0.2".parse().unwrap();
        let mut held: Vec<Client> = (0..MAX_CLIENT_REQUESTS)
            .map(|_| clients.admit(a).unwrap())
            .collect();
        let e = clients.admit(a).unwrap_err();
        assert_eq!(e.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert!(e.retry_after().is_some());
        assert!(
            e.message().contains("127.0.0.2 has 8 requests"),
            "{}",
            e.message()
        );
        // The same address mapped into IPv6 is the same client.
        let mapped: IpAddr = "::ffff:127.0.0.2".parse().unwrap();
        assert!(clients.admit(mapped).is_err());
        let other = clients.admit("127.0.0.3".parse().unwrap()).unwrap();
        held.pop();
        held.push(clients.admit(a).unwrap());
        drop(held);
        drop(other);
        assert_eq!(clients.len(), 0, "entries go with their last request");
    }
}
