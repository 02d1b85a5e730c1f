//! `eval_collection -- sweep`: each detector's parameters swept over the BBC summaries mixed into
//! the articles and over the BBC duplicates, behind the defaults the papers do not give. Apart
//! from the sections, which measure the defaults only.

use simdoc::collection::{Detection, Method, Normaliser, codet, pairs_within_groups, qsign, roul};

use super::{Bbc, Mixed, containment_scores, prepare, ratio, run, truth_groups};

/// The sweeps behind the defaults the papers do not give.
pub fn sweeps(bbc: &Bbc, m: &Mixed, only: &str) {
    let c_mixed = prepare(&m.names, &m.documents, Normaliser::Refine);
    let c_bbc = prepare(&bbc.names, &bbc.documents, Normaliser::Refine);
    let truth = pairs_within_groups(&truth_groups(&bbc.identity));
    let dup_scores = |d: &Detection| {
        let found = pairs_within_groups(&d.groups);
        let hit = found.intersection(&truth).count();
        (ratio(hit, found.len()), ratio(hit, truth.len()))
    };
    println!("## Sweeps\n");
    println!(
        "| parameter | summaries recall at 1 | containment precision | BBC duplicate precision | BBC duplicate recall |"
    );
    println!("|---|---|---|---|---|");
    let line = |label: String, method: Method| {
        if !label.starts_with(only) {
            return;
        }
        let (d, _) = run(&method, &c_mixed);
        let (r1, p, _) = containment_scores(m, &d);
        let (d2, _) = run(&method, &c_bbc);
        let (dp, dr) = dup_scores(&d2);
        println!("| {label} | {r1:.3} | {p:.3} | {dp:.3} | {dr:.3} |");
    };
    for etl in [0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9] {
        line(
            format!("codet ETL {etl}"),
            Method::CoDet(codet::CoDetParams {
                equivalency_threshold: etl,
                ..Default::default()
            }),
        );
    }
    for dt in [1, 2, 3, 5, 8, 12] {
        for ws in [true, false] {
            line(
                format!("codet DT {dt} WS {}", if ws { "on" } else { "off" }),
                Method::CoDet(codet::CoDetParams {
                    depth_threshold: dt,
                    word_sorting: ws,
                    ..Default::default()
                }),
            );
        }
    }
    for psc in [1, 2, 3] {
        line(
            format!("codet PSC {psc}"),
            Method::CoDet(codet::CoDetParams {
                processed_suffix_count: psc,
                ..Default::default()
            }),
        );
    }
    for share in [0.5, 0.6, 0.7, 0.8, 0.9, 1.0] {
        line(
            format!("qsign containment share {share}"),
            Method::QSign(qsign::QSignParams {
                containment_share: share,
                ..Default::default()
            }),
        );
    }
    for d in [0, 1, 2, 3] {
        line(
            format!("qsign 32/2 d {d}"),
            Method::QSign(qsign::QSignParams {
                max_bit_difference: d,
                ..Default::default()
            }),
        );
    }
    for (k, rate) in [(1, 0.1), (1, 0.5), (3, 0.1), (3, 0.5)] {
        line(
            format!("qsign 32/2 derived d (k {k}, rho {rate}, cap 5)"),
            Method::QSign(qsign::QSignParams {
                max_bit_difference: 5,
                adaptive: Some(qsign::AdaptiveRange {
                    word_flexibility: k,
                    false_hit_rate: rate,
                }),
                ..Default::default()
            }),
        );
    }
    for (th1, th3, th4) in [
        (40, 60, 0.9),
        (32, 60, 0.9),
        (40, 62, 0.9),
        (40, 60, 0.8),
        (40, 60, 0.95),
        (46, 60, 0.9),
    ] {
        for th2 in [46, 50, 54] {
            line(
                format!("roul th1 {th1} th2 {th2} th3 {th3} th4 {th4}"),
                Method::Roul(roul::RoulParams {
                    th1,
                    th2,
                    th3,
                    th4,
                    ..Default::default()
                }),
            );
        }
    }
    println!();
}
