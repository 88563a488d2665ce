//! `pathsmooth serve`: the interactive playground, a web page and a JSON API over the
//! library's pipeline (see `crate::serve`).

use std::io::Write;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};

use anyhow::{Context, Result};
use clap::Args;

use crate::serve::{self, limits, Hosts, Playground};

/// Arguments of `pathsmooth serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// TCP port to listen on (0: any free port; the address is printed on the first line).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// Address to listen on (the default answers only this machine).
    #[arg(long, default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    pub bind: IpAddr,
    /// Moving AI `.map` files to offer besides the embedded example (repeatable).
    #[arg(long)]
    pub map: Vec<String>,
    /// Also answer to this host name (repeatable; any port): for a playground deliberately
    /// exposed under a name, or behind a proxy. By default only `localhost`, `127.0.0.1`,
    /// `[::1]` and the bound address, with the port, are answered (against DNS rebinding).
    #[arg(long = "allow-host", value_name = "NAME")]
    pub allow_host: Vec<String>,
    /// Memory the requests being served may hold together, MiB: a request reserves its
    /// estimate before it computes; one larger than this is refused (413), one that does
    /// not fit beside the others waits (503 at its deadline).
    #[arg(long, value_name = "MIB", default_value_t = limits::MEMORY_BUDGET >> 20,
          value_parser = clap::value_parser!(usize))]
    pub memory_budget: usize,
    /// Area costs of plan requests that give none, e.g. `S=4,W=exclude` (as `plan
    /// --area-costs`: terrain letters `.`/`G`, `S`, `W`; a positive cost or `exclude`); the
    /// page starts with them in its area-costs field.
    #[arg(long, value_name = "AREA=COST,...")]
    pub area_costs: Option<String>,
}

/// Runs `pathsmooth serve` until the process is stopped.
pub fn run(a: &ServeArgs) -> Result<()> {
    let playground = Playground::new(&a.map)?
        .with_memory_budget(a.memory_budget.saturating_mul(1 << 20))
        .with_area_costs(a.area_costs.as_deref())
        .context("--area-costs")?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(async {
        let addr = SocketAddr::new(a.bind, a.port);
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .with_context(|| format!("cannot listen on {addr}"))?;
        let local = listener.local_addr()?;
        // The first line is the address (tests and scripts read it when --port is 0).
        let mut out = std::io::stdout();
        writeln!(out, "pathsmooth playground: http://{local}/")?;
        out.flush()?;
        serve::serve(listener, playground, Hosts::new(local, &a.allow_host)).await
    })
}
