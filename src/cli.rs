//! Command-line interface of the native binary.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use clap::{Parser, Subcommand, ValueEnum};
use kubesim::auth::TokenFile;
use kubesim::clock::SystemTimeSource;
use kubesim::features::FeatureGates;
use kubesim::{AuthConfig, AuthorizationMode, Config, Engine};

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
    /// Authorization: RBAC (system:masters, then roles and bindings) or AlwaysAllow.
    #[arg(long, value_enum, default_value_t = AuthzMode::RBAC)]
    authorization_mode: AuthzMode,
    /// Static bearer tokens, in kube-apiserver's CSV format: token,user,uid,"group1,group2".
    /// The kubeconfig's admin token (user kubesim-admin in system:masters) works besides.
    #[arg(long, value_name = "FILE")]
    token_auth_file: Option<std::path::PathBuf>,
    /// Serve HTTPS with a self-signed certificate (the kubeconfig trusts it). With false,
    /// plain HTTP, to which kubectl sends no credentials: every request is anonymous.
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set)]
    tls: bool,
    /// Serve requests without credentials as system:anonymous (otherwise 401).
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set)]
    anonymous_auth: bool,
    /// How long after a change the garbage collector acts (ms).
    #[arg(long, default_value_t = 1000)]
    gc_delay_ms: i64,
    /// How long after a namespace's deletion the namespace controller empties it (ms).
    #[arg(long, default_value_t = 5000)]
    namespace_delay_ms: i64,
    /// Keep the cluster in FILE: loaded at start (when it exists), saved atomically while it
    /// changes and on shutdown. The format of the shim's exportState.
    #[arg(long, value_name = "FILE")]
    state: Option<std::path::PathBuf>,
    /// How often a changed cluster is saved to --state (ms).
    #[arg(long, default_value_t = 10_000)]
    state_interval_ms: u64,
    /// Start with the objects of these manifests: a YAML or JSON file, or a folder of them
    /// (its .yaml, .yml and .json files, by name). Applied server-side as the admin after
    /// --state is loaded, Namespaces first. Repeatable.
    #[arg(long, value_name = "PATH")]
    load: Vec<std::path::PathBuf>,
}

#[allow(clippy::upper_case_acronyms)]
#[derive(Clone, Copy, Debug, ValueEnum)]
enum AuthzMode {
    #[value(name = "RBAC")]
    RBAC,
    #[value(name = "AlwaysAllow")]
    AlwaysAllow,
}

/// The server's authentication: the token file's users plus the kubeconfig's admin token.
/// As kube-apiserver, anonymous requests are refused under `AlwaysAllow`.
fn auth_config(args: &ServeArgs) -> Result<AuthConfig, String> {
    let tokens = match &args.token_auth_file {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read --token-auth-file {}: {e}", path.display()))?;
            TokenFile::parse(&path.display().to_string(), &text)?
        }
        None => TokenFile::default(),
    };
    if args.anonymous_auth && matches!(args.authorization_mode, AuthzMode::AlwaysAllow) {
        // The engine resets it; kube-apiserver says so at start.
        eprintln!("AnonymousAuth is not allowed with the AlwaysAllow authorizer. Resetting AnonymousAuth to false. You should use a different authorizer");
    }
    Ok(AuthConfig::server(tokens, args.anonymous_auth))
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
    let auth = match auth_config(&args) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("Error: {e}");
            return 1;
        }
    };
    let authorization = match args.authorization_mode {
        AuthzMode::RBAC => AuthorizationMode::Rbac,
        AuthzMode::AlwaysAllow => AuthorizationMode::AlwaysAllow,
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
        .thread_stack_size(kubesim::server::ENGINE_STACK_BYTES)
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
        let tls = if args.tls {
            match kubesim::server::tls::self_signed(std::slice::from_ref(&args.address)) {
                Ok(t) => Some(t),
                Err(e) => {
                    eprintln!("Error: cannot make a serving certificate: {e}");
                    return 1;
                }
            }
        } else {
            None
        };
        let scheme = if tls.is_some() { "https" } else { "http" };
        let url = format!("{scheme}://{local}");
        let config = Config {
            seed: args.seed,
            time_source: match args.clock {
                ClockMode::Wall => Some(Box::new(SystemTimeSource)),
                ClockMode::Manual => None,
            },
            feature_gates: gates,
            server_address: local.to_string(),
            auth,
            authorization,
            gc_delay_ms: args.gc_delay_ms,
            namespace_delay_ms: args.namespace_delay_ms,
            ..Config::default()
        };
        let mut engine = Engine::new(config);
        if let Some(path) = &args.state {
            if let Err(e) = kubesim::server::state_file::load(path, &mut engine) {
                eprintln!("Error: {e}");
                return 1;
            }
        }
        if let Err(e) = load_manifests(&args.load, &mut engine) {
            eprintln!("Error: --load {e}");
            return 1;
        }
        let engine = Arc::new(Mutex::new(engine));
        let kubeconfig = args
            .kubeconfig
            .clone()
            .unwrap_or_else(|| default_kubeconfig(local.port()));
        let text =
            kubesim::server::kubeconfig::render(&url, tls.as_ref().map(|t| t.ca_pem.as_str()));
        if let Err(e) = kubesim::server::kubeconfig::write(&kubeconfig, &text) {
            eprintln!(
                "Error: cannot write kubeconfig {}: {e}",
                kubeconfig.display()
            );
            return 1;
        }
        println!(
            "kubesim: kubeconfig {} (export KUBECONFIG={})",
            kubeconfig.display(),
            kubeconfig.display()
        );
        // The ready line, last: everything is loaded and the port listens.
        println!("kubesim serving on {url}");
        let state_file = args
            .state
            .clone()
            .map(|path| Arc::new(kubesim::server::state_file::StateFile::new(path)));
        let saver = state_file.clone().map(|file| {
            let every = std::time::Duration::from_millis(args.state_interval_ms.max(1));
            tokio::spawn(kubesim::server::state_file::keep_saved(
                engine.clone(),
                file,
                every,
            ))
        });
        let shutdown = stop_signal();
        let mut limits = kubesim::server::Limits::default();
        limits.max_connections =
            kubesim::server::limits::raise_open_files_limit(limits.max_connections);
        let acceptor = tls.map(|t| t.acceptor);
        let served =
            kubesim::server::run_with(engine.clone(), listener, acceptor, limits, shutdown);
        let code = match served.await {
            Ok(()) => 0,
            Err(e) => {
                eprintln!("Error: {e}");
                1
            }
        };
        if let (Some(saver), Some(file)) = (saver, state_file) {
            saver.abort();
            let taken = file.take(&engine.lock().unwrap_or_else(|p| p.into_inner()));
            if let Err(e) = file.write(taken) {
                eprintln!("Error: cannot save state to {}: {e}", file.path().display());
                return 1;
            }
        }
        code
    })
}

/// Where the kubeconfig goes without `--kubeconfig`: the temporary folder, by port.
fn default_kubeconfig(port: u16) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("kubesim-{port}.kubeconfig"))
}

/// Applies the manifests at `paths` (files, or folders of .yaml, .yml and .json files taken
/// by name, as `kubectl apply -f DIR` takes them).
fn load_manifests(paths: &[std::path::PathBuf], engine: &mut Engine) -> Result<(), String> {
    let mut manifests = Vec::new();
    for path in paths {
        let fail = |e: std::io::Error| format!("{}: {e}", path.display());
        let files = if path.is_dir() {
            let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(path)
                .map_err(fail)?
                .filter_map(|entry| entry.ok().map(|e| e.path()))
                .filter(|p| {
                    p.is_file()
                        && p.extension()
                            .and_then(|x| x.to_str())
                            .is_some_and(|x| matches!(x, "yaml" | "yml" | "json"))
                })
                .collect();
            kubesim::sort::sort(&mut files);
            files
        } else {
            vec![path.clone()]
        };
        for file in files {
            let text =
                std::fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
            manifests.push(kubesim::engine::Manifest::new(
                file.display().to_string(),
                text,
            ));
        }
    }
    engine
        .load_manifests(&manifests)
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// Resolves on Ctrl-C or, on Unix, SIGTERM (how service managers stop a server).
async fn stop_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        if let Ok(mut term) = signal(SignalKind::terminate()) {
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                _ = term.recv() => {}
            }
            return;
        }
    }
    let _ = tokio::signal::ctrl_c().await;
}
