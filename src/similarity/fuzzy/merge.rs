//! The fuzzy matcher's candidates of both directions merged per left sentence
//! ([`merge_directions`]).

/// Per left sentence position with candidates, its candidates in both directions, sorted:
/// `forward` lists right candidates per left sentence, `backward` left candidates per right
/// sentence (`None` when the two documents are the same object: then it equals `forward`, and
/// is not searched a second time). Their union, or with `both_ways` their intersection: a pair
/// reaches the floor both ways only if each side's bound lets it.
pub(super) fn merge_directions(
    left_len: usize,
    forward: Vec<(u32, Vec<u32>)>,
    backward: Option<Vec<(u32, Vec<u32>)>>,
    both_ways: bool,
) -> Vec<(u32, Vec<u32>)> {
    // The backward lists turned around, per left sentence; sorted, since the right sentences
    // come in ascending order.
    let mut turned: Vec<Vec<u32>> = vec![Vec::new(); left_len];
    for (j, list) in backward.as_ref().unwrap_or(&forward) {
        for &i in list {
            turned[i as usize].push(*j);
        }
    }
    drop(backward);
    let mut merged = Vec::with_capacity(forward.len());
    let mut forward = forward.into_iter().peekable();
    for (i, back) in turned.into_iter().enumerate() {
        let ahead = forward
            .next_if(|(f, _)| *f as usize == i)
            .map(|(_, list)| list);
        let list = match (ahead, both_ways) {
            (Some(ahead), true) => sorted_intersection(&ahead, &back),
            (None, true) => Vec::new(),
            (Some(ahead), false) => sorted_union(&ahead, &back),
            (None, false) => back,
        };
        if !list.is_empty() {
            merged.push((i as u32, list));
        }
    }
    merged
}

/// The values in both sorted lists, sorted.
fn sorted_intersection(a: &[u32], b: &[u32]) -> Vec<u32> {
    let mut out = Vec::new();
    let (mut x, mut y) = (0, 0);
    while x < a.len() && y < b.len() {
        match a[x].cmp(&b[y]) {
            std::cmp::Ordering::Less => x += 1,
            std::cmp::Ordering::Greater => y += 1,
            std::cmp::Ordering::Equal => {
                out.push(a[x]);
                x += 1;
                y += 1;
            }
        }
    }
    out
}

/// The values in either sorted list, sorted, each once.
fn sorted_union(a: &[u32], b: &[u32]) -> Vec<u32> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut x, mut y) = (0, 0);
    while x < a.len() && y < b.len() {
        match a[x].cmp(&b[y]) {
            std::cmp::Ordering::Less => {
                out.push(a[x]);
                x += 1;
            }
            std::cmp::Ordering::Greater => {
                out.push(b[y]);
                y += 1;
            }
            std::cmp::Ordering::Equal => {
                out.push(a[x]);
                x += 1;
                y += 1;
            }
        }
    }
    out.extend_from_slice(&a[x..]);
    out.extend_from_slice(&b[y..]);
    out
}
