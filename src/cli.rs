//! Command-line interface of the native binary.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use clap::{Parser, Subcommand, ValueEnum};
use kubesim::clock::SystemTimeSource;
use kubesim::features::FeatureGates;
use kubesim::{Config, Engine};

#[derive(Parser, Debug)]
#[command(
    name = "kubesim",
    version,
    about = "A faithful simulator of the Kubernetes API server"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Serve the Kubernetes API over HTTP.
    Serve(ServeArgs),
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum ClockMode {
    /// Simulated time that moves only when advanced.
    Manual,
    /// Follow the machine's clock.
    Wall,
}

#[derive(clap::Args, Debug)]
struct ServeArgs {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1")]
    address: String,
    /// Port to listen on (0 picks a free one).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Write a kubeconfig pointing at this server to FILE.
    #[arg(long, value_name = "FILE")]
    kubeconfig: Option<std::path::PathBuf>,
    /// Feature gates, in kube-apiserver's format: Name=true,Other=false.
    #[arg(long, default_value = "")]
    feature_gates: String,
    /// Where time comes from.
    #[arg(long, value_enum, default_value_t = ClockMode::Wall)]
    clock: ClockMode,
    /// Seed for UIDs and generated names.
    #[arg(long, default_value_t = 0)]
    seed: u64,
}

/// Runs the CLI; returns the process exit code.
pub fn main() -> i32 {
    let cli = Cli::parse();
    match cli.command {
        Command::Serve(args) => serve(args),
    }
}

fn serve(args: ServeArgs) -> i32 {
    let gates = match FeatureGates::parse(&args.feature_gates) {
        Ok(g) => g,
        Err(e) => {
            eprintln!(
                "Error: invalid argument {:?} for \"--feature-gates\" flag: {e}",
                args.feature_gates
            );
            return 1;
        }
    };
    let addr: SocketAddr = match format!("{}:{}", args.address, args.port).parse() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("Error: invalid address: {e}");
            return 1;
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("Error: {e}");
            return 1;
        }
    };
    runtime.block_on(async move {
        let (listener, local) = match kubesim::server::bind(addr).await {
            Ok(x) => x,
            Err(e) => {
                eprintln!("Error: cannot listen on {addr}: {e}");
                return 1;
            }
        };
        let url = format!("http://{local}");
        let config = Config {
            seed: args.seed,
            time_source: match args.clock {
                ClockMode::Wall => Some(Box::new(SystemTimeSource)),
                ClockMode::Manual => None,
            },
            feature_gates: gates,
            server_address: local.to_string(),
            ..Config::default()
        };
        let engine = Arc::new(Mutex::new(Engine::new(config)));
        if let Some(path) = &args.kubeconfig {
            if let Err(e) = std::fs::write(path, kubesim::server::kubeconfig::render(&url)) {
                eprintln!("Error: cannot write kubeconfig {}: {e}", path.display());
                return 1;
            }
        }
        println!("kubesim serving on {url}");
        let shutdown = async {
            let _ = tokio::signal::ctrl_c().await;
        };
        match kubesim::server::run(engine, listener, shutdown).await {
            Ok(()) => 0,
            Err(e) => {
                eprintln!("Error: {e}");
                1
            }
        }
    })
}
