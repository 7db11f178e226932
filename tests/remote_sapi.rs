//! The SAPI client against the strict loopback fake: solver listing, the token in its header
//! only, the versioned media types, and every fault mapped to a message that says what failed
//! without the token.

use std::time::Duration;

use qubo_workbench::remote::fake_sapi::{FakeSapi, Faults, example_solvers};
use qubo_workbench::remote::sapi::Sapi;
use qubo_workbench::remote::{RemoteError, Secret};

const TOKEN: &str = "TEST-0123456789abcdef0123456789abcdef";

fn client(fake: &FakeSapi, token: &str, timeout_ms: u64) -> Sapi {
    Sapi::new(
        &fake.base_url,
        Secret::new(token),
        Duration::from_millis(timeout_ms),
    )
    .unwrap()
}

#[test]
fn solvers_are_listed_with_identity_status_and_category() {
    let fake = FakeSapi::start(TOKEN, example_solvers()).unwrap();
    let sapi = client(&fake, TOKEN, 5000);
    let solvers = sapi.solvers().unwrap();
    assert_eq!(solvers.len(), 2);
    assert_eq!(solvers[0].name, "Advantage_mock");
    assert_eq!(solvers[0].graph_id.as_deref(), Some("ring_4"));
    assert_eq!(solvers[0].category, "qpu");
    assert!(solvers[0].online);
    assert_eq!(solvers[1].category, "hybrid");
    let one = sapi
        .solver("hybrid_binary_quadratic_model_version2")
        .unwrap();
    assert_eq!(one.properties["maximum_time_limit_hrs"], 24.0);
    // What went over the wire: the token in X-Auth-Token, a versioned Accept.
    let seen = fake.seen();
    let header = |name: &str| {
        seen[0]
            .headers
            .iter()
            .find(|h| h.0 == name)
            .map(|h| h.1.clone())
            .unwrap_or_default()
    };
    assert_eq!(header("x-auth-token"), TOKEN);
    assert_eq!(
        header("accept"),
        "application/vnd.dwave.sapi.solver-definition-list+json; version=3.0.0"
    );
    assert_eq!(seen[0].path, "/sapi/v2/solvers/remote/");
}

#[test]
fn a_wrong_token_is_an_authentication_failure_that_does_not_show_it() {
    let fake = FakeSapi::start(TOKEN, example_solvers()).unwrap();
    let wrong = "WRONG-abcdef0123456789abcdef0123";
    let e = client(&fake, wrong, 5000).solvers().unwrap_err();
    assert!(matches!(e, RemoteError::Auth(_)), "{e:?}");
    let text = e.to_string();
    assert!(text.contains("authentication failed"), "{text}");
    assert!(!text.contains("abcdef0123456789"), "{text}");
}

#[test]
fn an_unknown_solver_is_not_found() {
    let fake = FakeSapi::start(TOKEN, example_solvers()).unwrap();
    let e = client(&fake, TOKEN, 5000)
        .solver("Nope_system")
        .unwrap_err();
    assert!(matches!(e, RemoteError::NotFound(_)), "{e:?}");
    assert!(e.to_string().contains("Nope_system"), "{e}");
}

#[test]
fn faults_become_clear_errors() {
    let fake = FakeSapi::start(TOKEN, example_solvers()).unwrap();
    let sapi = client(&fake, TOKEN, 500);
    fake.set_faults(Faults {
        wrong_version: true,
        ..Default::default()
    });
    let e = sapi.solvers().unwrap_err().to_string();
    assert!(
        e.contains("version 3.x") && e.contains("version=2.0.0"),
        "{e}"
    );
    fake.set_faults(Faults {
        malformed_json: true,
        ..Default::default()
    });
    let e = sapi.solvers().unwrap_err().to_string();
    assert!(e.contains("not JSON"), "{e}");
    fake.set_faults(Faults {
        drop_connection: true,
        ..Default::default()
    });
    let e = sapi.solvers().unwrap_err();
    assert!(matches!(e, RemoteError::Network(_)), "{e:?}");
    fake.set_faults(Faults {
        delay: Some(Duration::from_millis(1500)),
        ..Default::default()
    });
    let e = sapi.solvers().unwrap_err();
    assert!(matches!(e, RemoteError::Timeout(_)), "{e:?}");
    assert!(e.to_string().contains("0.5 s"), "{e}");
}

#[test]
fn tokens_are_not_sent_in_the_clear_to_remote_hosts() {
    let e = Sapi::new(
        "http://cloud.dwavesys.com/sapi/v2/",
        Secret::new(TOKEN),
        Duration::from_secs(1),
    )
    .err()
    .unwrap();
    assert!(e.to_string().contains("in the clear"), "{e}");
}
