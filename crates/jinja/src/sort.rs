//! libstdc++'s `std::sort` (introsort + final insertion sort), so that
//! elements the comparator calls equal end up in the same order as in the
//! C++ build. The comparator may fail (the C++ throws out of `std::sort`).
//! Our additions: every unguarded loop is bounds-checked (a comparator that
//! is not a strict weak order cannot run off the slice), and the heap-sort
//! fallback of a too-deep recursion is a merge sort.

use crate::error::Result;

const THRESHOLD: usize = 16;

/// `std::sort(v.begin(), v.end(), less)`.
pub fn cpp_sort<T: Clone>(v: &mut [T], less: &mut dyn FnMut(&T, &T) -> Result<bool>) -> Result<()> {
    let n = v.len();
    if n < 2 {
        return Ok(());
    }
    let depth = 2 * (usize::BITS - 1 - n.leading_zeros()) as usize;
    introsort_loop(v, 0, n, depth, less)?;
    final_insertion_sort(v, 0, n, less)
}

fn introsort_loop<T: Clone>(
    v: &mut [T],
    first: usize,
    mut last: usize,
    mut depth: usize,
    less: &mut dyn FnMut(&T, &T) -> Result<bool>,
) -> Result<()> {
    while last - first > THRESHOLD {
        if depth == 0 {
            return merge_sort(&mut v[first..last], less);
        }
        depth -= 1;
        let cut = partition_pivot(v, first, last, less)?;
        introsort_loop(v, cut, last, depth, less)?;
        last = cut;
    }
    Ok(())
}

fn partition_pivot<T: Clone>(
    v: &mut [T],
    first: usize,
    last: usize,
    less: &mut dyn FnMut(&T, &T) -> Result<bool>,
) -> Result<usize> {
    let mid = first + (last - first) / 2;
    move_median_to_first(v, first, first + 1, mid, last - 1, less)?;
    // __unguarded_partition(first + 1, last, first)
    let mut lo = first + 1;
    let mut hi = last;
    loop {
        while lo < last && less(&v[lo], &v[first])? {
            lo += 1;
        }
        if hi == 0 {
            return Ok(lo);
        }
        hi -= 1;
        while hi > first && less(&v[first], &v[hi])? {
            hi -= 1;
        }
        if lo >= hi {
            return Ok(lo);
        }
        v.swap(lo, hi);
        lo += 1;
    }
}

fn move_median_to_first<T: Clone>(
    v: &mut [T],
    result: usize,
    a: usize,
    b: usize,
    c: usize,
    less: &mut dyn FnMut(&T, &T) -> Result<bool>,
) -> Result<()> {
    if less(&v[a], &v[b])? {
        if less(&v[b], &v[c])? {
            v.swap(result, b);
        } else if less(&v[a], &v[c])? {
            v.swap(result, c);
        } else {
            v.swap(result, a);
        }
    } else if less(&v[a], &v[c])? {
        v.swap(result, a);
    } else if less(&v[b], &v[c])? {
        v.swap(result, c);
    } else {
        v.swap(result, b);
    }
    Ok(())
}

fn final_insertion_sort<T: Clone>(
    v: &mut [T],
    first: usize,
    last: usize,
    less: &mut dyn FnMut(&T, &T) -> Result<bool>,
) -> Result<()> {
    if last - first > THRESHOLD {
        insertion_sort(v, first, first + THRESHOLD, less)?;
        for i in first + THRESHOLD..last {
            unguarded_linear_insert(v, i, first, less)?;
        }
        Ok(())
    } else {
        insertion_sort(v, first, last, less)
    }
}

fn insertion_sort<T: Clone>(
    v: &mut [T],
    first: usize,
    last: usize,
    less: &mut dyn FnMut(&T, &T) -> Result<bool>,
) -> Result<()> {
    if first == last {
        return Ok(());
    }
    for i in first + 1..last {
        if less(&v[i], &v[first])? {
            v[first..=i].rotate_right(1);
        } else {
            unguarded_linear_insert(v, i, first, less)?;
        }
    }
    Ok(())
}

fn unguarded_linear_insert<T: Clone>(
    v: &mut [T],
    mut last: usize,
    lower: usize,
    less: &mut dyn FnMut(&T, &T) -> Result<bool>,
) -> Result<()> {
    let val = v[last].clone();
    while last > lower && less(&val, &v[last - 1])? {
        v[last] = v[last - 1].clone();
        last -= 1;
    }
    v[last] = val;
    Ok(())
}

fn merge_sort<T: Clone>(v: &mut [T], less: &mut dyn FnMut(&T, &T) -> Result<bool>) -> Result<()> {
    let n = v.len();
    if n < 2 {
        return Ok(());
    }
    let mid = n / 2;
    merge_sort(&mut v[..mid], less)?;
    merge_sort(&mut v[mid..], less)?;
    let left = v[..mid].to_vec();
    let right = v[mid..].to_vec();
    let (mut i, mut j, mut k) = (0, 0, 0);
    while i < left.len() && j < right.len() {
        if less(&right[j], &left[i])? {
            v[k] = right[j].clone();
            j += 1;
        } else {
            v[k] = left[i].clone();
            i += 1;
        }
        k += 1;
    }
    while i < left.len() {
        v[k] = left[i].clone();
        i += 1;
        k += 1;
    }
    while j < right.len() {
        v[k] = right[j].clone();
        j += 1;
        k += 1;
    }
    Ok(())
}
