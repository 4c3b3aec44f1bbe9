//! libstdc++'s `std::sort` (introsort, median-of-three pivot, final
//! insertion sort), step for step.
//!
//! `std::sort` is not stable, and llama.cpp sorts its special-token cache
//! with it by text length only: among tokens of equal length, the order it
//! leaves decides which of two overlapping special tokens is split out
//! first. Reproducing that order needs the same algorithm, not just any
//! sort.

const THRESHOLD: usize = 16;

/// Sorts `v` as `std::sort(v.begin(), v.end(), less)` does.
pub(crate) fn std_sort<T: Copy>(v: &mut [T], less: &impl Fn(&T, &T) -> bool) {
    let n = v.len();
    if n == 0 {
        return;
    }
    let lg = usize::BITS - 1 - n.leading_zeros();
    introsort_loop(v, 0, n, (lg as usize) * 2, less);
    final_insertion_sort(v, 0, n, less);
}

fn introsort_loop<T: Copy>(
    v: &mut [T],
    first: usize,
    mut last: usize,
    mut depth: usize,
    less: &impl Fn(&T, &T) -> bool,
) {
    while last - first > THRESHOLD {
        if depth == 0 {
            partial_sort(v, first, last, less);
            return;
        }
        depth -= 1;
        let cut = unguarded_partition_pivot(v, first, last, less);
        introsort_loop(v, cut, last, depth, less);
        last = cut;
    }
}

fn unguarded_partition_pivot<T: Copy>(
    v: &mut [T],
    first: usize,
    last: usize,
    less: &impl Fn(&T, &T) -> bool,
) -> usize {
    let mid = first + (last - first) / 2;
    move_median_to_first(v, first, first + 1, mid, last - 1, less);
    unguarded_partition(v, first + 1, last, first, less)
}

fn move_median_to_first<T: Copy>(
    v: &mut [T],
    result: usize,
    a: usize,
    b: usize,
    c: usize,
    less: &impl Fn(&T, &T) -> bool,
) {
    let pick = if less(&v[a], &v[b]) {
        if less(&v[b], &v[c]) {
            b
        } else if less(&v[a], &v[c]) {
            c
        } else {
            a
        }
    } else if less(&v[a], &v[c]) {
        a
    } else if less(&v[b], &v[c]) {
        c
    } else {
        b
    };
    v.swap(result, pick);
}

fn unguarded_partition<T: Copy>(
    v: &mut [T],
    mut first: usize,
    mut last: usize,
    pivot: usize,
    less: &impl Fn(&T, &T) -> bool,
) -> usize {
    loop {
        while less(&v[first], &v[pivot]) {
            first += 1;
        }
        last -= 1;
        while less(&v[pivot], &v[last]) {
            last -= 1;
        }
        if first >= last {
            return first;
        }
        v.swap(first, last);
        first += 1;
    }
}

fn final_insertion_sort<T: Copy>(
    v: &mut [T],
    first: usize,
    last: usize,
    less: &impl Fn(&T, &T) -> bool,
) {
    if last - first > THRESHOLD {
        insertion_sort(v, first, first + THRESHOLD, less);
        for i in first + THRESHOLD..last {
            unguarded_linear_insert(v, i, less);
        }
    } else {
        insertion_sort(v, first, last, less);
    }
}

fn insertion_sort<T: Copy>(v: &mut [T], first: usize, last: usize, less: &impl Fn(&T, &T) -> bool) {
    if first == last {
        return;
    }
    for i in first + 1..last {
        if less(&v[i], &v[first]) {
            let val = v[i];
            v.copy_within(first..i, first + 1);
            v[first] = val;
        } else {
            unguarded_linear_insert(v, i, less);
        }
    }
}

fn unguarded_linear_insert<T: Copy>(v: &mut [T], mut last: usize, less: &impl Fn(&T, &T) -> bool) {
    let val = v[last];
    let mut next = last - 1;
    while less(&val, &v[next]) {
        v[last] = v[next];
        last = next;
        next -= 1;
    }
    v[last] = val;
}

/// `std::__partial_sort(first, last, last)`: make_heap then sort_heap.
fn partial_sort<T: Copy>(v: &mut [T], first: usize, last: usize, less: &impl Fn(&T, &T) -> bool) {
    make_heap(v, first, last, less);
    let mut end = last;
    while end - first > 1 {
        end -= 1;
        // __pop_heap(first, end, end)
        let value = v[end];
        v[end] = v[first];
        adjust_heap(v, first, 0, end - first, value, less);
    }
}

fn make_heap<T: Copy>(v: &mut [T], first: usize, last: usize, less: &impl Fn(&T, &T) -> bool) {
    let len = last - first;
    if len < 2 {
        return;
    }
    let mut parent = (len - 2) / 2;
    loop {
        let value = v[first + parent];
        adjust_heap(v, first, parent, len, value, less);
        if parent == 0 {
            return;
        }
        parent -= 1;
    }
}

fn adjust_heap<T: Copy>(
    v: &mut [T],
    first: usize,
    mut hole: usize,
    len: usize,
    value: T,
    less: &impl Fn(&T, &T) -> bool,
) {
    let top = hole;
    let mut second = hole;
    while second < (len - 1) / 2 {
        second = 2 * (second + 1);
        if less(&v[first + second], &v[first + second - 1]) {
            second -= 1;
        }
        v[first + hole] = v[first + second];
        hole = second;
    }
    if len & 1 == 0 && second == (len - 2) / 2 {
        second = 2 * (second + 1);
        v[first + hole] = v[first + second - 1];
        hole = second - 1;
    }
    // __push_heap(first, hole, top, value)
    while hole > top {
        let parent = (hole - 1) / 2;
        if !less(&v[first + parent], &value) {
            break;
        }
        v[first + hole] = v[first + parent];
        hole = parent;
    }
    v[first + hole] = value;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts() {
        for n in [0usize, 1, 2, 15, 16, 17, 100, 1000] {
            let mut v: Vec<u32> = (0..n as u32).map(|i| (i * 7919) % 101).collect();
            std_sort(&mut v, &|a, b| a < b);
            assert!(v.windows(2).all(|w| w[0] <= w[1]), "n={n}");
        }
    }

    #[test]
    fn ties_keep_libstdcxx_order() {
        // g++ 12: std::sort of ids 0..60 by these keys, descending.
        const KEYS: [u32; 60] = [
            2, 5, 5, 2, 3, 5, 4, 5, 1, 5, 1, 4, 3, 5, 2, 2, 4, 5, 5, 4, 4, 2, 2, 2, 5, 4, 1, 1, 2,
            5, 1, 3, 1, 3, 4, 5, 4, 4, 4, 5, 4, 2, 3, 1, 1, 2, 4, 2, 3, 4, 3, 4, 5, 4, 5, 3, 5, 5,
            4, 5,
        ];
        const WANT: [u32; 60] = [
            1, 59, 57, 56, 54, 52, 39, 35, 29, 24, 18, 17, 13, 7, 2, 5, 9, 34, 36, 37, 49, 38, 51,
            53, 25, 6, 40, 20, 19, 11, 16, 58, 46, 42, 12, 33, 48, 31, 50, 4, 55, 47, 3, 0, 45, 41,
            28, 23, 22, 21, 15, 14, 44, 43, 32, 30, 8, 27, 26, 10,
        ];
        let mut v: Vec<u32> = (0..60).collect();
        std_sort(&mut v, &|&a: &u32, &b: &u32| {
            KEYS[a as usize] > KEYS[b as usize]
        });
        assert_eq!(v, WANT);
    }

    #[test]
    fn heapsort_fallback_sorts() {
        // Adversarial for median-of-three only in theory; force depth 0.
        let mut v: Vec<u32> = (0..500).rev().collect();
        let n = v.len();
        partial_sort(&mut v, 0, n, &|a: &u32, b: &u32| a < b);
        assert!(v.windows(2).all(|w| w[0] <= w[1]));
    }
}
