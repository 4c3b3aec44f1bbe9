//! Ollama: the releases Promptscope reproduces, the llama.cpp build each
//! compiles for native mode (its `LLAMA_CPP_VERSION` file), and every
//! behaviour of Ollama's own code (its Go server, renderers, parsers and
//! routes) that differs between them ([`TABLE`]).
//!
//! A release is the set of rows in effect in it: a row's `first` is the
//! first release tag whose code has the new behaviour and `last_without`
//! the tag before it, found by reading the repository at its tags (`git
//! tag --contains` of the upstream commit). Tags are numbered in release
//! order by [`number`] (`0.32.15-rc2` before `0.32.15` before
//! `0.33.0-rc0`), so a release has a row when its number is at least the
//! row's `first`. Differences in the llama.cpp a release compiles are
//! rows of [`crate::llamacpp::TABLE`], reached through the release's build.

use crate::llamacpp::Build;
use crate::{Change, Runtime};
use std::fmt;

/// A release tag's number in release order: `0.MINOR.PATCH-rcN` is
/// `MINOR·100000 + PATCH·1000 + N`, and the release itself (no `-rc`)
/// `MINOR·100000 + PATCH·1000 + 999`.
pub const fn number(minor: u32, patch: u32, rc: Option<u32>) -> u32 {
    minor * 100_000
        + patch * 1_000
        + match rc {
            Some(n) => n,
            None => 999,
        }
}

/// The tag a [`number`] stands for (`0.32.15-rc2`).
pub fn name_of(n: u32) -> String {
    let (minor, patch, rc) = (n / 100_000, n / 1_000 % 100, n % 1_000);
    if rc == 999 {
        format!("0.{minor}.{patch}")
    } else {
        format!("0.{minor}.{patch}-rc{rc}")
    }
}

/// The [`number`] of a tag (`0.32.15-rc2`, `v0.32.15`); `None` when it is
/// not `0.MINOR.PATCH` with an optional `-rcN`.
pub fn number_of(tag: &str) -> Option<u32> {
    let tag = tag.strip_prefix('v').unwrap_or(tag);
    let (version, rc) = match tag.split_once("-rc") {
        Some((v, n)) => (v, Some(digits(n)?)),
        None => (tag, None),
    };
    let mut parts = version.split('.');
    let (major, minor, patch) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() || digits(major)? != 0 {
        return None;
    }
    let (minor, patch) = (digits(minor)?, digits(patch)?);
    (patch < 100 && rc.is_none_or(|n| n < 999)).then(|| number(minor, patch, rc))
}

fn digits(s: &str) -> Option<u32> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) || s.len() > 6 {
        return None;
    }
    s.parse().ok()
}

/// An Ollama release tag (`0.33.0-rc2`), as `ollama -v` prints it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Release {
    /// `0.33.0-rc2`.
    pub tag: &'static str,
    /// The commit the tag names.
    pub commit: &'static str,
    /// The llama.cpp build its `LLAMA_CPP_VERSION` names.
    pub llama_cpp: Build,
}

impl Release {
    /// v0.33.0-rc2 (commit fb30760, 2026-08-21): llama.cpp b10488.
    pub const V0_33_0_RC2: Release = Release {
        tag: "0.33.0-rc2",
        commit: "fb30760996871fa9460115c753afd2c60d4ab0f7",
        llama_cpp: Build::B10488,
    };
    /// v0.33.0-rc1 (commit 124e9af, 2026-08-21): llama.cpp b10488.
    pub const V0_33_0_RC1: Release = Release {
        tag: "0.33.0-rc1",
        commit: "124e9af9d281483ebeeba3e9a950f19764c2c3e9",
        llama_cpp: Build::B10488,
    };
    /// v0.33.0-rc0 (commit 2d9622a, 2026-08-21): llama.cpp b10488.
    pub const V0_33_0_RC0: Release = Release {
        tag: "0.33.0-rc0",
        commit: "2d9622a4d4976ff18367c6eb021b8638912d8493",
        llama_cpp: Build::B10488,
    };
    /// v0.32.15 (commit b7871fc, 2026-08-19): llama.cpp b10488.
    pub const V0_32_15: Release = Release {
        tag: "0.32.15",
        commit: "b7871fc0d1d82fe109536efa3e0e8e411c766c75",
        llama_cpp: Build::B10488,
    };
    /// v0.32.15-rc2: the same commit as v0.32.15.
    pub const V0_32_15_RC2: Release = Release {
        tag: "0.32.15-rc2",
        commit: "b7871fc0d1d82fe109536efa3e0e8e411c766c75",
        llama_cpp: Build::B10488,
    };
    /// v0.32.10-rc0 (commit 2b4a993, 2026-08-12): llama.cpp b10380.
    pub const V0_32_10_RC0: Release = Release {
        tag: "0.32.10-rc0",
        commit: "2b4a99376cee19f92106d10232f301f740198021",
        llama_cpp: Build::B10380,
    };
    /// v0.32.10-rc1 (commit 8831349, 2026-08-12): llama.cpp b10380.
    pub const V0_32_10_RC1: Release = Release {
        tag: "0.32.10-rc1",
        commit: "88313499e0dcffa77d44a8a5fe33611d0106e64a",
        llama_cpp: Build::B10380,
    };
    /// v0.32.10 (commit 9a56a0e, 2026-08-12): llama.cpp b10380.
    pub const V0_32_10: Release = Release {
        tag: "0.32.10",
        commit: "9a56a0e845e5d3de1356c91af485d06adf55015d",
        llama_cpp: Build::B10380,
    };
    /// v0.32.11 (commit 39df91c, 2026-08-13): llama.cpp b10380.
    pub const V0_32_11: Release = Release {
        tag: "0.32.11",
        commit: "39df91c9826b3c0c83677f75cd230d8848d287c3",
        llama_cpp: Build::B10380,
    };
    /// v0.32.12 (commit e0e1d3c, 2026-08-14): llama.cpp b10380.
    pub const V0_32_12: Release = Release {
        tag: "0.32.12",
        commit: "e0e1d3c7d960f5879386871deb23582800c8599d",
        llama_cpp: Build::B10380,
    };
    /// v0.32.13 (commit 0f25c31, 2026-08-14): llama.cpp b10380.
    pub const V0_32_13: Release = Release {
        tag: "0.32.13",
        commit: "0f25c31bd53b64dc3fcc8fce0bde954159a67a58",
        llama_cpp: Build::B10380,
    };
    /// v0.32.14 (commit d67ad83, 2026-08-15): llama.cpp b10434.
    pub const V0_32_14: Release = Release {
        tag: "0.32.14",
        commit: "d67ad83426633195089509347ffd4fe795120198",
        llama_cpp: Build::B10434,
    };
    /// v0.32.14-rc0: the same commit as v0.32.14.
    pub const V0_32_14_RC0: Release = Release {
        tag: "0.32.14-rc0",
        commit: "d67ad83426633195089509347ffd4fe795120198",
        llama_cpp: Build::B10434,
    };
    /// v0.32.15-rc1 (commit d1bd15c, 2026-08-19): llama.cpp b10488.
    pub const V0_32_15_RC1: Release = Release {
        tag: "0.32.15-rc1",
        commit: "d1bd15ccce147830959e9997d552c6e93ff7d45b",
        llama_cpp: Build::B10488,
    };
    /// v0.32.15-rc0 (commit 0bb0925, 2026-08-19): llama.cpp b10488.
    pub const V0_32_15_RC0: Release = Release {
        tag: "0.32.15-rc0",
        commit: "0bb09259203ff8f6d361faae1d40c4f83d2a99f7",
        llama_cpp: Build::B10488,
    };
    /// v0.32.7 (commit 9c15f5c, 2026-08-09; a release branch whose
    /// cherry-picks reached main as 43f4eda80): llama.cpp b10242.
    pub const V0_32_7: Release = Release {
        tag: "0.32.7",
        commit: "9c15f5c07f58834206edb2b9dde51ec24a74dfa8",
        llama_cpp: Build::B10242,
    };
    /// v0.32.6 (commit c82ebbd, 2026-08-04): llama.cpp b10242.
    pub const V0_32_6: Release = Release {
        tag: "0.32.6",
        commit: "c82ebbd5bfb9ec7d94d3894e9023db0fb224ff50",
        llama_cpp: Build::B10242,
    };
    /// v0.32.6-rc0: the same commit as v0.32.6.
    pub const V0_32_6_RC0: Release = Release {
        tag: "0.32.6-rc0",
        commit: "c82ebbd5bfb9ec7d94d3894e9023db0fb224ff50",
        llama_cpp: Build::B10242,
    };
    /// v0.32.9 (commit 1d5febe, 2026-08-10): llama.cpp b10353.
    pub const V0_32_9: Release = Release {
        tag: "0.32.9",
        commit: "1d5febee105f00c430e19214b7b7b620cf186f98",
        llama_cpp: Build::B10353,
    };
    /// v0.32.8 (commit 4f066a6, 2026-08-10): llama.cpp b10353.
    pub const V0_32_8: Release = Release {
        tag: "0.32.8",
        commit: "4f066a6fb0c05d7dcf68e02858a5ddd399af716a",
        llama_cpp: Build::B10353,
    };
    /// v0.32.8-rc0: the same commit as v0.32.8.
    pub const V0_32_8_RC0: Release = Release {
        tag: "0.32.8-rc0",
        commit: "4f066a6fb0c05d7dcf68e02858a5ddd399af716a",
        llama_cpp: Build::B10353,
    };
    /// v0.32.5 (commit eec8e0b, 2026-07-27): llama.cpp b10091.
    pub const V0_32_5: Release = Release {
        tag: "0.32.5",
        commit: "eec8e0b9458b8a01be0c216a9cc53eefde24ef50",
        llama_cpp: Build::B10091,
    };
    /// v0.32.5-rc0 (commit be7572e, 2026-07-26): llama.cpp b10091.
    pub const V0_32_5_RC0: Release = Release {
        tag: "0.32.5-rc0",
        commit: "be7572e2cf442789e1c0f7fbbbd8bb5c89250a7d",
        llama_cpp: Build::B10091,
    };
    /// v0.32.4 (commit 64ee2f9, 2026-07-24): llama.cpp b10091.
    pub const V0_32_4: Release = Release {
        tag: "0.32.4",
        commit: "64ee2f9847ccaedd8f05a139c30f086e9e0abe73",
        llama_cpp: Build::B10091,
    };
    /// v0.32.4-rc0: the same commit as v0.32.4.
    pub const V0_32_4_RC0: Release = Release {
        tag: "0.32.4-rc0",
        commit: "64ee2f9847ccaedd8f05a139c30f086e9e0abe73",
        llama_cpp: Build::B10091,
    };
    /// v0.32.3 (commit fce745f, 2026-07-22): llama.cpp b10091.
    pub const V0_32_3: Release = Release {
        tag: "0.32.3",
        commit: "fce745fe5e4f0c7741ca46fc5484c9471c997d00",
        llama_cpp: Build::B10091,
    };
    /// v0.32.3-rc0 (commit 1fd1ccf, 2026-07-22): llama.cpp b10091.
    pub const V0_32_3_RC0: Release = Release {
        tag: "0.32.3-rc0",
        commit: "1fd1ccf7ad3bef3e7e3b49d151f7bee8570c42ab",
        llama_cpp: Build::B10091,
    };
    /// v0.32.2 (commit a51df81, 2026-07-21): llama.cpp b10069.
    pub const V0_32_2: Release = Release {
        tag: "0.32.2",
        commit: "a51df815734ef001b07fa29018f0cdc8523f83cc",
        llama_cpp: Build::B10069,
    };
    /// v0.32.2-rc3: the same commit as v0.32.2.
    pub const V0_32_2_RC3: Release = Release {
        tag: "0.32.2-rc3",
        commit: "a51df815734ef001b07fa29018f0cdc8523f83cc",
        llama_cpp: Build::B10069,
    };
    /// v0.32.2-rc2 (commit e21d532, 2026-07-21): llama.cpp b10069.
    pub const V0_32_2_RC2: Release = Release {
        tag: "0.32.2-rc2",
        commit: "e21d5327b01e8edeb47055733947a00d44f70751",
        llama_cpp: Build::B10069,
    };
    /// v0.32.2-rc1 (commit 4d1b53e, 2026-07-21): llama.cpp b10069.
    pub const V0_32_2_RC1: Release = Release {
        tag: "0.32.2-rc1",
        commit: "4d1b53e6fb935fb93962cc4689da3ac9320ec87d",
        llama_cpp: Build::B10069,
    };
    /// v0.32.2-rc0 (commit de1ce45, 2026-07-20): llama.cpp b10069.
    pub const V0_32_2_RC0: Release = Release {
        tag: "0.32.2-rc0",
        commit: "de1ce45913871c5e3fa58c8da7640f911bf23c24",
        llama_cpp: Build::B10069,
    };
    /// v0.32.1 (commit 30c3903, 2026-07-15): llama.cpp b9888.
    pub const V0_32_1: Release = Release {
        tag: "0.32.1",
        commit: "30c390384e20333b67cadab60da5bcb669407f01",
        llama_cpp: Build::B9888,
    };
    /// v0.32.1-rc0: the same commit as v0.32.1.
    pub const V0_32_1_RC0: Release = Release {
        tag: "0.32.1-rc0",
        commit: "30c390384e20333b67cadab60da5bcb669407f01",
        llama_cpp: Build::B9888,
    };
    /// v0.32.0 (commit f1a0ffd, 2026-07-13): llama.cpp b9888.
    pub const V0_32_0: Release = Release {
        tag: "0.32.0",
        commit: "f1a0ffd6219b5ef82aee77254f895b383efb5486",
        llama_cpp: Build::B9888,
    };
    /// v0.32.0-rc0 (commit 82f905c, 2026-07-09): llama.cpp b9888.
    pub const V0_32_0_RC0: Release = Release {
        tag: "0.32.0-rc0",
        commit: "82f905cd9c06c6f0254d74c5326aa2a7f2f07e1f",
        llama_cpp: Build::B9888,
    };
    /// v0.31.2 (commit a6293eb, 2026-07-07): llama.cpp b9888.
    pub const V0_31_2: Release = Release {
        tag: "0.31.2",
        commit: "a6293eb5164214f15e7856268f3adddeae1026e2",
        llama_cpp: Build::B9888,
    };
    /// v0.31.2-rc2: the same commit as v0.31.2.
    pub const V0_31_2_RC2: Release = Release {
        tag: "0.31.2-rc2",
        commit: "a6293eb5164214f15e7856268f3adddeae1026e2",
        llama_cpp: Build::B9888,
    };
    /// v0.31.2-rc1 (commit 67b6a1c, 2026-07-06): llama.cpp b9888.
    pub const V0_31_2_RC1: Release = Release {
        tag: "0.31.2-rc1",
        commit: "67b6a1c2d45321e0cb3c04a18073f9818de7724b",
        llama_cpp: Build::B9888,
    };
    /// v0.31.2-rc0 (commit f2d069f, 2026-07-06): llama.cpp b9888.
    pub const V0_31_2_RC0: Release = Release {
        tag: "0.31.2-rc0",
        commit: "f2d069f6df78201f5fd53526950007210613164c",
        llama_cpp: Build::B9888,
    };
    /// v0.31.1 (commit 710292f, 2026-06-29): llama.cpp b9840.
    pub const V0_31_1: Release = Release {
        tag: "0.31.1",
        commit: "710292ff4f191d8da9f6a4230804fbc693338d4a",
        llama_cpp: Build::B9840,
    };
    /// v0.31.0 (commit ada1eb5, 2026-06-29): llama.cpp b9840.
    pub const V0_31_0: Release = Release {
        tag: "0.31.0",
        commit: "ada1eb516354a0428c48202b1a8966550056df8e",
        llama_cpp: Build::B9840,
    };
    /// v0.30.12-rc0 (commit 1c5ebbf, 2026-06-29): llama.cpp b9840.
    pub const V0_30_12_RC0: Release = Release {
        tag: "0.30.12-rc0",
        commit: "1c5ebbf5f4a41d37b65e100b4938ec6f710b74fe",
        llama_cpp: Build::B9840,
    };
    /// v0.30.11 (commit d26a585, 2026-06-26): llama.cpp b9781.
    pub const V0_30_11: Release = Release {
        tag: "0.30.11",
        commit: "d26a58557d83aa8892bdfa79b3550f5ee969cd1c",
        llama_cpp: Build::B9781,
    };
    /// v0.30.11-rc1 (commit 2e474c9, 2026-06-25): llama.cpp b9781.
    pub const V0_30_11_RC1: Release = Release {
        tag: "0.30.11-rc1",
        commit: "2e474c98f91a3995001abfa80c41f7e11ad5f4a3",
        llama_cpp: Build::B9781,
    };
    /// v0.30.11-rc0 (commit e11eeb3, 2026-06-24): llama.cpp b9781.
    pub const V0_30_11_RC0: Release = Release {
        tag: "0.30.11-rc0",
        commit: "e11eeb3ba01e9a59f74e767ce7d61a825daf86cd",
        llama_cpp: Build::B9781,
    };
    /// v0.30.10: the same commit as v0.30.10-rc1.
    pub const V0_30_10: Release = Release {
        tag: "0.30.10",
        commit: "e1f7f9cbdbdad30b9811d5b673cf3d3f9c624dc2",
        llama_cpp: Build::B9672,
    };
    /// v0.30.10-rc1 (commit e1f7f9c, 2026-06-17): llama.cpp b9672.
    pub const V0_30_10_RC1: Release = Release {
        tag: "0.30.10-rc1",
        commit: "e1f7f9cbdbdad30b9811d5b673cf3d3f9c624dc2",
        llama_cpp: Build::B9672,
    };
    /// v0.30.10-rc0 (commit 8c432fc, 2026-06-16): llama.cpp b9672.
    pub const V0_30_10_RC0: Release = Release {
        tag: "0.30.10-rc0",
        commit: "8c432fc88a4009645c2ceac8df086d07b0a56945",
        llama_cpp: Build::B9672,
    };
    /// v0.30.9: the same commit as v0.30.9-rc2.
    pub const V0_30_9: Release = Release {
        tag: "0.30.9",
        commit: "0f047feef52c0c0d62c715cce94d7cac7c2a854b",
        llama_cpp: Build::B9626,
    };
    /// v0.30.9-rc2 (commit 0f047fe, 2026-06-16): llama.cpp b9626.
    pub const V0_30_9_RC2: Release = Release {
        tag: "0.30.9-rc2",
        commit: "0f047feef52c0c0d62c715cce94d7cac7c2a854b",
        llama_cpp: Build::B9626,
    };
    /// v0.30.9-rc1 (commit bbb40a0, 2026-06-15): llama.cpp b9626.
    pub const V0_30_9_RC1: Release = Release {
        tag: "0.30.9-rc1",
        commit: "bbb40a0a6c0cbca772182a8bfa426ed2f9c05ae2",
        llama_cpp: Build::B9626,
    };
    /// v0.30.9-rc0 (commit 7ea692c, 2026-06-14): llama.cpp b9626.
    pub const V0_30_9_RC0: Release = Release {
        tag: "0.30.9-rc0",
        commit: "7ea692cb2b978186a5b771222c72775809e918b0",
        llama_cpp: Build::B9626,
    };
    /// v0.30.8: the same commit as v0.30.8-rc0.
    pub const V0_30_8: Release = Release {
        tag: "0.30.8",
        commit: "12e04379cd5a9a2f150104a02c5761213f4be777",
        llama_cpp: Build::B9509,
    };
    /// v0.30.8-rc0 (commit 12e0437, 2026-06-11): llama.cpp b9509.
    pub const V0_30_8_RC0: Release = Release {
        tag: "0.30.8-rc0",
        commit: "12e04379cd5a9a2f150104a02c5761213f4be777",
        llama_cpp: Build::B9509,
    };
    /// v0.30.7 (commit f0078ae, 2026-06-07): llama.cpp b9509.
    pub const V0_30_7: Release = Release {
        tag: "0.30.7",
        commit: "f0078ae4766d0d570e196158f20dde309bd96124",
        llama_cpp: Build::B9509,
    };
    /// v0.30.7-rc1 (commit e09b3f9, 2026-06-05): llama.cpp b9509.
    pub const V0_30_7_RC1: Release = Release {
        tag: "0.30.7-rc1",
        commit: "e09b3f9fb5e8e18b65796424182b31d09dc49406",
        llama_cpp: Build::B9509,
    };
    /// v0.30.7-rc0 (commit a0099da, 2026-06-05): llama.cpp b9509.
    pub const V0_30_7_RC0: Release = Release {
        tag: "0.30.7-rc0",
        commit: "a0099da2d16751f7753fd75156c190e078f16c0e",
        llama_cpp: Build::B9509,
    };
    /// v0.30.6: the same commit as v0.30.6-rc0.
    pub const V0_30_6: Release = Release {
        tag: "0.30.6",
        commit: "87cff95af86a1d8be1d81ce75fafc9bb4e67d002",
        llama_cpp: Build::B9509,
    };
    /// v0.30.6-rc0 (commit 87cff95, 2026-06-04): llama.cpp b9509.
    pub const V0_30_6_RC0: Release = Release {
        tag: "0.30.6-rc0",
        commit: "87cff95af86a1d8be1d81ce75fafc9bb4e67d002",
        llama_cpp: Build::B9509,
    };
    /// v0.30.5 (commit 3370ff8, 2026-06-04): llama.cpp b9509.
    pub const V0_30_5: Release = Release {
        tag: "0.30.5",
        commit: "3370ff8b1cda259b1b4cf947422a2faff7aaa58b",
        llama_cpp: Build::B9509,
    };
    /// v0.30.5-rc0 (commit 455f574, 2026-06-04): llama.cpp b9509.
    pub const V0_30_5_RC0: Release = Release {
        tag: "0.30.5-rc0",
        commit: "455f57457d26ffddc039188080f3109168ba0245",
        llama_cpp: Build::B9509,
    };
    /// v0.30.4: the same commit as v0.30.4-rc1.
    pub const V0_30_4: Release = Release {
        tag: "0.30.4",
        commit: "229a1303fb746393b784da791c30bebc0475f1af",
        llama_cpp: Build::B9493,
    };
    /// v0.30.4-rc1 (commit 229a130, 2026-06-03): llama.cpp b9493.
    pub const V0_30_4_RC1: Release = Release {
        tag: "0.30.4-rc1",
        commit: "229a1303fb746393b784da791c30bebc0475f1af",
        llama_cpp: Build::B9493,
    };
    /// v0.30.4-rc0 (commit 3e1b4fe, 2026-06-03): llama.cpp b9493.
    pub const V0_30_4_RC0: Release = Release {
        tag: "0.30.4-rc0",
        commit: "3e1b4fe39d513fe750b82fb57c36af585a6b75a5",
        llama_cpp: Build::B9493,
    };
    /// v0.30.3 (commit 50bbda5, 2026-06-03): llama.cpp b9479.
    pub const V0_30_3: Release = Release {
        tag: "0.30.3",
        commit: "50bbda566067b4598c67b90e08db244606766dda",
        llama_cpp: Build::B9479,
    };
    /// v0.30.2: the same commit as v0.30.2-rc0.
    pub const V0_30_2: Release = Release {
        tag: "0.30.2",
        commit: "4b5bdd3b25118dc6904c01b01b47abcf5cbd8b92",
        llama_cpp: Build::B9479,
    };
    /// v0.30.2-rc0 (commit 4b5bdd3, 2026-06-02): llama.cpp b9479.
    pub const V0_30_2_RC0: Release = Release {
        tag: "0.30.2-rc0",
        commit: "4b5bdd3b25118dc6904c01b01b47abcf5cbd8b92",
        llama_cpp: Build::B9479,
    };
    /// v0.30.1 (commit e828061, 2026-06-02): llama.cpp b9479.
    pub const V0_30_1: Release = Release {
        tag: "0.30.1",
        commit: "e828061b6e2a49639eb5e3415412006241d51772",
        llama_cpp: Build::B9479,
    };
    /// v0.30.1-rc0 (commit f57d111, 2026-06-02): llama.cpp b9479.
    pub const V0_30_1_RC0: Release = Release {
        tag: "0.30.1-rc0",
        commit: "f57d111754a1ba87aebf90a36715a06049e3cee0",
        llama_cpp: Build::B9479,
    };
    /// v0.30.0 (commit 2c71d8d, 2026-06-01): llama.cpp b9452.
    pub const V0_30_0: Release = Release {
        tag: "0.30.0",
        commit: "2c71d8d7ca6edbc9bdc1a312f71ce3b079c0fe56",
        llama_cpp: Build::B9452,
    };
    /// The newest supported release: the default.
    pub const NEWEST: Release = Release::V0_33_0_RC2;
    /// Every release whose behaviour is reproduced, oldest first
    /// (COMPATIBILITY.md, "Ollama releases", says which differ and how).
    pub const SUPPORTED: &'static [Release] = &[
        Release::V0_30_0,
        Release::V0_30_1_RC0,
        Release::V0_30_1,
        Release::V0_30_2_RC0,
        Release::V0_30_2,
        Release::V0_30_3,
        Release::V0_30_4_RC0,
        Release::V0_30_4_RC1,
        Release::V0_30_4,
        Release::V0_30_5_RC0,
        Release::V0_30_5,
        Release::V0_30_6_RC0,
        Release::V0_30_6,
        Release::V0_30_7_RC0,
        Release::V0_30_7_RC1,
        Release::V0_30_7,
        Release::V0_30_8_RC0,
        Release::V0_30_8,
        Release::V0_30_9_RC0,
        Release::V0_30_9_RC1,
        Release::V0_30_9_RC2,
        Release::V0_30_9,
        Release::V0_30_10_RC0,
        Release::V0_30_10_RC1,
        Release::V0_30_10,
        Release::V0_30_11_RC0,
        Release::V0_30_11_RC1,
        Release::V0_30_11,
        Release::V0_30_12_RC0,
        Release::V0_31_0,
        Release::V0_31_1,
        Release::V0_31_2_RC0,
        Release::V0_31_2_RC1,
        Release::V0_31_2_RC2,
        Release::V0_31_2,
        Release::V0_32_0_RC0,
        Release::V0_32_0,
        Release::V0_32_1_RC0,
        Release::V0_32_1,
        Release::V0_32_2_RC0,
        Release::V0_32_2_RC1,
        Release::V0_32_2_RC2,
        Release::V0_32_2_RC3,
        Release::V0_32_2,
        Release::V0_32_3_RC0,
        Release::V0_32_3,
        Release::V0_32_4_RC0,
        Release::V0_32_4,
        Release::V0_32_5_RC0,
        Release::V0_32_5,
        Release::V0_32_6_RC0,
        Release::V0_32_6,
        Release::V0_32_7,
        Release::V0_32_8_RC0,
        Release::V0_32_8,
        Release::V0_32_9,
        Release::V0_32_10_RC0,
        Release::V0_32_10_RC1,
        Release::V0_32_10,
        Release::V0_32_11,
        Release::V0_32_12,
        Release::V0_32_13,
        Release::V0_32_14_RC0,
        Release::V0_32_14,
        Release::V0_32_15_RC0,
        Release::V0_32_15_RC1,
        Release::V0_32_15_RC2,
        Release::V0_32_15,
        Release::V0_33_0_RC0,
        Release::V0_33_0_RC1,
        Release::V0_33_0_RC2,
    ];

    /// A supported release from its tag (`0.33.0-rc2`, or `v0.33.0-rc2`);
    /// anything else is an error that names the supported releases.
    pub fn parse(text: &str) -> Result<Release, String> {
        let tag = text.strip_prefix('v').unwrap_or(text);
        Release::SUPPORTED
            .iter()
            .copied()
            .find(|r| r.tag == tag)
            .ok_or_else(|| {
                format!(
                    "Ollama {text:?} is not a supported release (supported: every release from {} to {})",
                    Release::SUPPORTED[0].tag,
                    Release::NEWEST.tag
                )
            })
    }
}

impl Release {
    /// The tag's [`number`].
    pub fn number(&self) -> u32 {
        number_of(self.tag).expect("a supported tag is numbered")
    }

    /// Whether `change` (a row of Ollama's table) is in effect in this
    /// release.
    pub fn has(&self, change: &Change) -> bool {
        change.runtime == Runtime::Ollama && self.number() >= change.first
    }

    /// The rows of both tables in effect in one of two releases and not
    /// the other: Ollama's own, then those of the llama.cpp builds they
    /// compile.
    pub fn differences(&self, other: &Release) -> Vec<&'static Change> {
        let mut rows: Vec<&'static Change> = TABLE
            .iter()
            .copied()
            .filter(|c| self.has(c) != other.has(c))
            .collect();
        rows.extend(self.llama_cpp.differences(other.llama_cpp));
        rows
    }
}

change_table! {
    Runtime::Ollama, "Every row, oldest first.";
    PROMPT_EVAL_COUNT_INCLUDES_CACHE = "prompt_eval_count_includes_cache", "server",
        (number(30, 0, None), number(30, 1, Some(0))),
        "PR #16428, commit 35fa277fa",
        "llm/llama_server.go llamaServerTimings.promptEvalCount (Completion, Chat)",
        new: "prompt_eval_count is llama-server's cache_n + prompt_n: every token of the prompt, cached or evaluated",
        old: "prompt_eval_count is llama-server's prompt_n: only the tokens evaluated after the slot's cache was reused";
    GEMMA4_LARGE_FROM_12B = "gemma4_large_from_12b", "server",
        (number(30, 2, None), number(30, 3, None)),
        "PR #16457, commit 50bbda566",
        "server/renderer_resolution.go gemma4RendererFromName",
        new: "RENDERER gemma4 resolves to gemma4-large for a name holding 12b, 26b or 31b, else for a model type of at least 12B",
        old: "it resolves to gemma4-large only for a name holding 26b or 31b, else for a model type of at least 16B";
    CACHE_PROMPT_ALWAYS = "cache_prompt_always", "server",
        (number(30, 7, None), number(30, 8, Some(0))),
        "PR #16639, commit f8a48df24",
        "llm/llama_server.go Completion, llamaServerChatRequest (cache_prompt)",
        new: "every request asks llama-server to reuse the slot's cached prefix (cache_prompt true)",
        old: "cache_prompt follows the request's shift: a request with \"shift\": false has the whole prompt evaluated again";
    LFM2_OPTIONAL_THINKING = "lfm2_optional_thinking", "parser",
        (number(30, 9, Some(0)), number(30, 9, Some(1))),
        "PR #16359, commit 993acc750",
        "model/parsers/lfm2.go LFM2Parser (LFM2LookingForThinking)",
        new: "the lfm2-thinking parser with thinking on reads thinking only after a leading <think>; an answer that starts otherwise is content, tool calls included",
        old: "with thinking on, everything up to the first </think> is thinking (a leading <think> dropped), and an answer without </think> is all thinking";
    LFM2_THINKING_FIELD_RENDERED = "lfm2_thinking_field_rendered", "renderer",
        (number(30, 9, Some(0)), number(30, 9, Some(1))),
        "PR #16359, commit 993acc750",
        "model/renderers/lfm2.go LFM2Renderer.Render (lfm2-thinking)",
        new: "lfm2-thinking writes an assistant message's thinking as <think>…</think> before its tool calls and content (kept on the last assistant message, and on every one under think true)",
        old: "an assistant message's thinking field is never written";
    LFM2_HISTORY_STRIP_AFTER_TOOL_CALLS = "lfm2_history_strip_after_tool_calls", "renderer",
        (number(30, 9, Some(0)), number(30, 9, Some(1))),
        "PR #16359, commit 993acc750",
        "model/renderers/lfm2.go LFM2Renderer.Render",
        new: "an earlier assistant message's reasoning is cut (up to its last </think>) after its tool calls are written into the content, so the calls of a message whose content holds </think> vanish",
        old: "the reasoning is cut from the content before the tool calls are prepended, so the calls stay";
    CONTEXT_SHIFT_DEFAULT_ON = "context_shift_default_on", "server",
        (number(30, 9, Some(0)), number(30, 9, Some(1))),
        "PR #16712, commit bbb40a0a6",
        "server/sched.go resolveContextShift",
        new: "a request without shift runs with context shift on, whatever num_ctx is",
        old: "a request without shift runs with context shift on only when num_ctx is below 8192";
    PROMPT_OVER_CONTEXT_400 = "prompt_over_context_400", "server",
        (number(30, 9, Some(0)), number(30, 9, Some(1))),
        "PR #16712, commit bbb40a0a6",
        "llm/llama_server.go completionPromptForRequest",
        new: "a prompt longer than num_ctx - 1 tokens is refused (400), not cut",
        old: "it is cut to num_ctx - 1 tokens (its first num_keep and its tail), whether context shift is on or off, and never refused";
    CONTEXT_SHIFT_TRUNCATION = "context_shift_truncation", "server",
        (number(30, 9, Some(1)), number(30, 9, Some(2))),
        "PR #16764, commit 0f047feef",
        "llm/llama_server.go completionPromptForRequest",
        new: "with context shift on, a prompt too long for num_ctx is cut again; with it off, the 400 says \"shorten the prompt, adjust the context length in settings, or use a model with a longer context length\"",
        old: "every such prompt is refused, context shift or not, with \"shorten the prompt or adjust the context length in settings\"";
    CONTEXT_SHIFT_OFF_DEEPSEEK2 = "context_shift_off_deepseek2", "server",
        (number(30, 9, Some(1)), number(30, 9, Some(2))),
        "PR #16764, commit 0f047feef",
        "server/sched.go resolveContextShift (supportsContextShift)",
        new: "a deepseek2 model runs without context shift unless the request sets shift",
        old: "deepseek2 models get the same default as every other model";
    COHERE_RENDERER = "cohere_renderer", "renderer",
        (number(30, 9, None), number(30, 10, Some(0))),
        "PR #16670, commit acfb50d9a",
        "model/renderers/renderer.go rendererForName, cohere.go",
        new: "the cohere renderer (Command A / North) exists",
        old: "RENDERER cohere is an unknown renderer";
    COHERE_PARSER = "cohere_parser", "parser",
        (number(30, 9, None), number(30, 10, Some(0))),
        "PR #16670, commit acfb50d9a",
        "model/parsers/parsers.go ParserForName, cohere.go",
        new: "the cohere parser reads a PARSER cohere model's thinking, text and actions",
        old: "PARSER cohere is no parser: the answer is content as written, and it gives no tools or thinking capability";
    GENERATE_NATIVE_CHAT_TEMPLATE = "generate_native_chat_template", "server",
        (number(30, 10, None), number(30, 11, Some(0))),
        "PR #16878, commit 16739dee6",
        "server/routes.go GenerateHandler (prepareNativeChatRequest)",
        new: "/api/generate on a model in native mode sends [system, Modelfile messages, user prompt] to llama-server's /apply-template, so the GGUF chat template writes the prompt",
        old: "/api/generate renders with the model's Go TEMPLATE even in native mode (Ollama's default {{ .Prompt }} when it has none, which writes the prompt alone), as /api/chat's GGUF template does not";
    PREFER_CHAT_TEMPLATE_TOOL_ROUND_TRIP = "prefer_chat_template_tool_round_trip", "server",
        (number(30, 10, None), number(30, 11, Some(0))),
        "PR #16878, commit 16739dee6",
        "server/images.go shouldPreferChatTemplate",
        new: "when the GGUF chat template and the Go TEMPLATE have the same capabilities, tools among them, the GGUF template is preferred if only it has a tool round trip",
        old: "the GGUF chat template is preferred only when it has more capabilities than the Go TEMPLATE: on a tie the Go TEMPLATE is kept";
    CONTEXT_SHIFT_GENERATION_HEADROOM = "context_shift_generation_headroom", "server",
        (number(30, 10, None), number(30, 11, Some(0))),
        "PR #16856, commit c191a145b",
        "llm/llama_server.go completionPromptForRequest (contextShiftPromptLimit)",
        new: "a prompt too long for num_ctx keeps num_keep tokens (one more when the tokenizer adds BOS) and is cut to num_ctx - max((num_ctx - num_keep) / 2, 1) tokens, so about half the rest of the context is free for the answer",
        old: "it keeps num_keep tokens (no BOS added) and is cut to num_ctx - 1 tokens, leaving one token for the answer";
    ORNITH_RENDERER = "ornith_renderer", "renderer",
        (number(30, 11, Some(0)), number(30, 11, Some(1))),
        "PR #16920, commit 2e474c98f",
        "model/renderers/renderer.go rendererForName, ornith.go",
        new: "the ornith renderer exists: qwen3.5's, writing every assistant turn's think block (<think>\\n…\\n</think>\\n\\n) even in history and under think false",
        old: "RENDERER ornith is an unknown renderer";
    ORNITH_PARSER = "ornith_parser", "parser",
        (number(30, 11, Some(0)), number(30, 11, Some(1))),
        "PR #16920, commit 2e474c98f",
        "model/parsers/parsers.go ParserForName",
        new: "the ornith parser (qwen3.5's) reads a PARSER ornith model's answer",
        old: "PARSER ornith is no parser: the answer is content as written, and it gives no tools or thinking capability";
    QWEN35_HISTORICAL_THINK_SPLIT = "qwen35_historical_think_split", "renderer",
        (number(30, 11, Some(0)), number(30, 11, Some(1))),
        "PR #16920, commit 2e474c98f",
        "model/renderers/qwen35.go Render (splitQwen35ReasoningContent)",
        new: "an assistant turn whose think block is not written (before the last user message) has its content's reasoning taken out, up to the </think>, even when it has a thinking field",
        old: "under thinking, such a turn with a thinking field keeps its content as written, </think> and all";
    TOOLS_BRACE_IN_JSON_STRING = "tools_brace_in_json_string", "tools",
        (number(30, 11, None), number(30, 12, Some(0))),
        "PR #16937, commit 32a97b749",
        "tools/tools.go Parser.done (the TEMPLATE's tool-call parser)",
        new: "braces and brackets inside a JSON string do not end a { or [ tool call: {\"name\": \"f\", \"arguments\": {\"s\": \"}}\"}} is a call",
        old: "every brace or bracket counts, inside strings too, so one in a string can end the call early: the text is then content and no call is read";
    FORMAT_IMMEDIATE_FOR_THINKING_PARSERS = "format_immediate_for_thinking_parsers", "server",
        (number(31, 2, Some(1)), number(31, 2, Some(2))),
        "PR #15901, commit 892e7f6be",
        "server/routes.go ChatHandler (structured outputs)",
        new: "with think false and a format, a built-in parser that supports thinking has the format applied from the first token",
        old: "only the gemma4 parser did: with another thinking parser the completion ran without the format, and it was never applied";
    GEMMA4_MODEL_TURN_STRUCTURE = "gemma4_model_turn_structure", "renderer",
        (number(32, 0, None), number(32, 1, Some(0))),
        "PR #17182, commit 8a0016f82",
        "model/renderers/gemma4.go Render (gemma4, gemma4-small, gemma4-large)",
        new: "adjacent assistant messages share one model turn with no <turn|> between them, and a tool-call turn without content is closed (<turn|>) before a later message",
        old: "every assistant message ends with <turn|>, even one that the next continues, and a tool-call turn without content is never closed";
    GEMMA4_THINKING_CUES = "gemma4_thinking_cues", "renderer",
        (number(32, 0, None), number(32, 1, Some(0))),
        "PR #17182, commit 8a0016f82",
        "model/renderers/gemma4.go Render (gemma4, gemma4-small, gemma4-large)",
        new: "an assistant message after the last user message writes its thinking even without tool calls, and a prompt that ends with tool results under think true ends with <|channel>thought\\n",
        old: "only an assistant message with tool calls writes its thinking, and a prompt ending with tool results ends there";
    GEMMA4_NULL_VALUES = "gemma4_null_values", "renderer",
        (number(32, 0, None), number(32, 1, Some(0))),
        "PR #17182, commit 8a0016f82",
        "model/renderers/gemma4.go formatArgValue, formatSchemaValue",
        new: "a null in a tool call's arguments or a tool's schema is written null",
        old: "it is written as Go's %v prints nil: <nil>";
    GEMMA4_THINKING_AFTER_TOOL = "gemma4_thinking_after_tool", "parser",
        (number(32, 0, None), number(32, 1, Some(0))),
        "PR #17182, commit 8a0016f82",
        "model/parsers/gemma4.go Gemma4Parser.Init",
        new: "with thinking on, an answer after a tool result starts as thinking (up to <channel|>)",
        old: "it starts as content, so thinking written before <channel|> stays in the content, tag and all";
    ANTHROPIC_CLOSE_TEXT_BEFORE_THINKING = "anthropic_close_text_before_thinking", "route",
        (number(32, 1, None), number(32, 2, Some(0))),
        "PR #17225, commit 794a25411",
        "anthropic/anthropic.go StreamConverter.Process (/v1/messages, streamed)",
        new: "thinking that comes after text closes the text block first (content_block_stop) and opens the thinking block at the next index",
        old: "the thinking block opens at the text block's index without closing it, and later text gets deltas at the next index with no content_block_start";
    LAGUNA_V2_EMBEDDED_THINKING = "laguna_v2_embedded_thinking", "renderer",
        (number(32, 2, Some(2)), number(32, 2, Some(3))),
        "PR #17291, commit a18c23018",
        "model/renderers/laguna.go LagunaRenderer.Render, lagunaV2AssistantContent",
        new: "reasoning written inside an assistant message's content is taken out of it: the content is what follows the last </think>, and a message without thinking gets the text before the first </think> (after its last <think>) as its reasoning block",
        old: "the content is written as it is, tags and all, and only the message's thinking fills the reasoning block";
    LAGUNA_SPACED_TOOL_ARGUMENTS = "laguna_spaced_tool_arguments", "renderer",
        (number(32, 2, Some(2)), number(32, 2, Some(3))),
        "PR #17291, commit a18c23018",
        "model/renderers/laguna.go formatLagunaToolCallArgument",
        new: "a tool call's arguments that are not strings are written as spaced JSON (1000000, {\"a\": 1, \"b\": [1, 2]})",
        old: "they are written as formatToolCallArgument writes them: objects and arrays as compact JSON, other values with %v (1e+06)";
    LAGUNA_V8_RENDERER = "laguna_v8_renderer", "renderer",
        (number(32, 2, Some(2)), number(32, 2, Some(3))),
        "PR #17291, commit a18c23018",
        "model/renderers/renderer.go rendererForName",
        new: "the renderer of Laguna's v8 template exists, named laguna-v8",
        old: "RENDERER laguna-v8 is an unknown renderer";
    LAGUNA_V8_PARSER = "laguna_v8_parser", "parser",
        (number(32, 2, Some(2)), number(32, 2, Some(3))),
        "PR #17291, commit a18c23018",
        "model/parsers/parsers.go ParserForName",
        new: "the laguna-v8 parser reads a PARSER laguna-v8 model's answer (the Laguna parser, which never continues the last assistant message)",
        old: "PARSER laguna-v8 is no parser: the answer is content as written, and it gives no tools or thinking capability";
    POOLSIDE_V1_RENDERER = "poolside_v1_renderer", "renderer",
        (number(32, 2, None), number(32, 3, Some(0))),
        "PR #17335, commit 1fd1ccf7a",
        "model/renderers/renderer.go rendererForName",
        new: "Laguna's v8 renderer is named poolside-v1, and RENDERER laguna-v8 is unknown again",
        old: "it is named laguna-v8, and RENDERER poolside-v1 is unknown";
    POOLSIDE_V1_PARSER = "poolside_v1_parser", "parser",
        (number(32, 2, None), number(32, 3, Some(0))),
        "PR #17335, commit 1fd1ccf7a",
        "model/parsers/parsers.go ParserForName",
        new: "Laguna's v8 parser is named poolside-v1, and PARSER laguna-v8 is no parser again",
        old: "it is named laguna-v8, and PARSER poolside-v1 is no parser (content as written, no tools or thinking capability)";
    GLM_FINALIZE_UNCLOSED_TOOL_CALL = "glm_finalize_unclosed_tool_call", "parser",
        (number(32, 2, None), number(32, 3, Some(0))),
        "PR #17250, commit b517b9bd0",
        "model/parsers/glm46.go GLM46Parser.Add, finalizeToolCall (the glm-4.7 and glm-ocr parsers)",
        new: "a tool call whose </tool_call> never came is a call at the end of the output when it is otherwise complete, and else the error \"incomplete GLM tool call: ...\"",
        old: "a tool call still open at the end of the output is dropped: no call, no content, no error";
    OPENAI_STREAM_WIRE_FORMAT = "openai_stream_wire_format", "route",
        (number(32, 5, None), number(32, 6, Some(0))),
        "PR #17485, commit 8edecb5c6",
        "middleware/openai.go ChatWriter.writeResponse; openai/openai.go ToStreamChunks, FinishChunk (/v1/chat/completions, streamed)",
        new: "the role only on the first chunk, no content in the reasoning half of a split chunk, no chunk for the done response's empty trailer, the finish reason on a chunk of its own with an empty delta (done_reason or stop; tool_calls only in place of stop once a call was sent), the usage chunk after it, and every chunk created at the first response's time",
        old: "every chunk's delta has role assistant and its content (\"\" in the reasoning half), the finish reason rides on the done response's own chunk (tool_calls for any reason once a call was sent or the chunk has one), the usage chunk is a copy of that chunk with no choices, and each chunk is created at the time it is written";
    OPENAI_FINISH_LENGTH_OVER_TOOL_CALLS = "openai_finish_length_over_tool_calls", "route",
        (number(32, 5, None), number(32, 6, Some(0))),
        "PR #17485, commit 8edecb5c6",
        "openai/openai.go ToChatCompletion (/v1/chat/completions)",
        new: "an answer with tool calls has finish_reason tool_calls only in place of stop (length stays length)",
        old: "any answer with tool calls has finish_reason tool_calls, whatever the done reason, even none";
    IMAGEGEN_REFUSED = "imagegen_refused", "route",
        (number(32, 5, None), number(32, 6, Some(0))),
        "PR #16615, commit 4713800b0",
        "server/routes.go GenerateHandler (/api/generate)",
        new: "a model with the image capability is refused: 400 image generation models are not currently supported",
        old: "a model with the image capability runs on the image-generation runner (not reproduced)";
    GENERATE_IMAGE_FIELDS = "generate_image_fields", "route",
        (number(32, 5, None), number(32, 6, Some(0))),
        "PR #16615, commit 4713800b0",
        "api/types.go GenerateRequest (/api/generate)",
        new: "width, height and steps are not fields of the request: ignored whatever they hold",
        old: "width, height and steps are int32 fields: a value of another type, a fraction or one out of range is a 400 (json: cannot unmarshal ... into Go struct field GenerateRequest.width of type int32)";
    GLIMMER_RENDERER = "glimmer_renderer", "renderer",
        (number(32, 6, None), number(32, 7, None)),
        "PR #17646, commit 3e79f4e37 (v0.32.7's branch; 43f4eda80 on main)",
        "model/renderers/renderer.go rendererForName",
        new: "the glimmer renderer exists",
        old: "RENDERER glimmer is an unknown renderer";
    GLIMMER_PARSER = "glimmer_parser", "parser",
        (number(32, 6, None), number(32, 7, None)),
        "PR #17646, commit 3e79f4e37 (v0.32.7's branch; 43f4eda80 on main)",
        "model/parsers/parsers.go ParserForName",
        new: "the glimmer parser reads a PARSER glimmer model's answer (its channels, ATEM tool calls)",
        old: "PARSER glimmer is no parser: the answer is content as written, and it gives no tools or thinking capability";
    RESPONSES_NAMESPACE_TOOLS = "responses_namespace_tools", "route",
        (number(32, 6, None), number(32, 7, None)),
        "PR #17593, commit 35f71382d",
        "openai/responses.go convertTools (/v1/responses)",
        new: "a {\"type\": \"namespace\"} tool becomes its member functions, each named namespace.member",
        old: "a namespace tool becomes one function named after the namespace, with no parameters, and its members are dropped";
    NEMOTRON3NANO_TEMPLATE_SYNC = "nemotron3nano_template_sync", "renderer",
        (number(32, 8, None), number(32, 9, None)),
        "PR #17060, commit bb7bba885",
        "model/renderers/nemotron3nano.go Render, formatArgValue",
        new: "the prompt follows the model's updated template: no leading blank lines, no blank line after the system turn or before the generation prompt, user and system turns lose /think and /no_think and surrounding whitespace, a leading tool result opens no user turn, scalar tool-call arguments print as True, False and None",
        old: "the prompt starts with three newlines, a blank line follows the system turn and precedes the generation prompt, user and system turns are written as given, a leading tool result opens a user turn, scalar arguments print with Go's %v (true, <nil>)";
    NEMOTRON35_RENDERER = "nemotron35_renderer", "renderer",
        (number(32, 8, None), number(32, 9, None)),
        "commit 1d5febee1",
        "model/renderers/renderer.go rendererForName",
        new: "the nemotron-3.5-nano renderer exists",
        old: "RENDERER nemotron-3.5-nano is an unknown renderer";
    GLIMMER_ATEM_NAME_RECOVERY = "glimmer_atem_name_recovery", "parser",
        (number(32, 8, None), number(32, 9, None)),
        "PR #17664, commit 400164d47",
        "model/parsers/glimmer.go glimmerCutInvokeName",
        new: "a <|message|> token the model writes in place of an ATEM invoke name's \"> ends the name, and the call parses",
        old: "an ATEM invoke name runs to the first \"> and then loses its <|message|> tokens, so a token in place of the terminator fails the call (\"malformed ATEM parameter\")";
    REPEAT_PENALTY_DEFAULT_1 = "repeat_penalty_default_1", "options",
        (number(32, 9, None), number(32, 10, Some(0))),
        "commit 6a261db7d",
        "api/types.go DefaultOptions",
        new: "repeat_penalty defaults to 1.0 (no penalty)",
        old: "repeat_penalty defaults to 1.1";
    RESPONSES_WEB_SEARCH = "responses_web_search", "route",
        (number(32, 9, None), number(32, 10, Some(0))),
        "PR #17686, commit b6b1b258c",
        "openai/responses.go FromResponsesRequest, unmarshalResponsesInputItem (/v1/responses)",
        new: "a {\"type\": \"web_search\"} tool becomes Ollama's own web_search function (a client function of that name is dropped beside it) and web_search_call input items are taken and left out of the chat",
        old: "a web_search tool passes through as a function with no name, and a web_search_call input item is a 400 (unknown input item type)";
    RESPONSES_MERGE_REPLAYED_ASSISTANT = "responses_merge_replayed_assistant", "route",
        (number(32, 9, None), number(32, 10, Some(0))),
        "PR #17686, commit b6b1b258c",
        "openai/responses.go FromResponsesRequest (/v1/responses)",
        new: "an assistant message replayed between a function_call and its function_call_output joins the tool-call message (content after a newline, images, thinking), so the result follows its call",
        old: "that assistant message stays a turn of its own between the call and its result";
    RESPONSES_STREAM_ITEMS = "responses_stream_items", "route",
        (number(32, 9, None), number(32, 10, Some(0))),
        "PR #17686, commit b6b1b258c",
        "openai/responses.go ResponsesStreamConverter (/v1/responses, streamed)",
        new: "each streamed item gets its own output_index, thinking after a tool call opens a new reasoning item, and the final output lists every completed item in order",
        old: "a second tool call in a later chunk reuses output_index 0, thinking after a tool call adds to the first reasoning item, and the final output lists only the function calls when there are any";
    OPENAI_REASONING_EFFORT_CLAMP = "openai_reasoning_effort_clamp", "route",
        (number(32, 10, None), number(32, 11, None)),
        "PR #17594, commit 01d04d50f",
        "openai/openai.go thinkFromReasoningEffort (FromChatRequest, FromResponsesRequest)",
        new: "reasoning effort minimal is think low, xhigh and ultra are think max; the 400 for another value lists all eight",
        old: "only high, medium, low, max and none are taken; anything else is a 400 (on /v1/chat/completions with the value in single quotes)";
    GLIMMER_SYSTEM_REASONING = "glimmer_system_reasoning", "renderer",
        (number(32, 10, None), number(32, 11, None)),
        "PR #17732, commit 7ce88bd68",
        "model/renderers/glimmer.go writeGlimmerSystem",
        new: "a client's system message has \"Reasoning effort\" written as \"Reasoning strength\", and one that states a reasoning strength gets no second one",
        old: "a client's system message is written as given, and \"Reasoning strength: <strength>.\" is always appended";
    QWEN38_RENDERER = "qwen38_renderer", "renderer",
        (number(32, 11, None), number(32, 12, None)),
        "PR #17745, commit e0e1d3c7d (v0.32.12; 551279752 on main)",
        "model/renderers/renderer.go rendererForName",
        new: "the qwen3.8 renderer exists",
        old: "RENDERER qwen3.8 is an unknown renderer";
    QWEN35_PARSER_THINK_SPACE = "qwen35_parser_think_space", "parser",
        (number(32, 11, None), number(32, 12, None)),
        "PR #17745, commit e0e1d3c7d (v0.32.12; 551279752 on main)",
        "model/parsers/qwen35.go maybeConsumeLeadingThinkOpenTag",
        new: "after a leading <think> the thinking's leading whitespace is trimmed even when <think> came alone in its chunk, and only one <think> is taken",
        old: "when <think> came alone in its chunk, the next chunk's leading whitespace stays in the thinking, and a second <think> is taken too";
    QWEN38_DEVELOPER_ROLE = "qwen38_developer_role", "renderer",
        (number(32, 12, None), number(32, 13, None)),
        "PR #17749, commit 0f25c31bd",
        "model/renderers/qwen35.go normalizeQwen38Messages, validateMessages",
        new: "qwen3.8 folds a leading run of system and developer messages into one system turn, and writes any other role as its own turn",
        old: "qwen3.8 refuses a developer message, or any role but system, user, assistant and tool: unexpected message role";
    QWEN38_SYSTEM_ANYWHERE = "qwen38_system_anywhere", "renderer",
        (number(32, 13, None), number(32, 14, Some(0))),
        "PR #17757, commit 87abaa019",
        "model/renderers/qwen35.go validateMessages",
        new: "qwen3.8 writes a system message after the first where it is",
        old: "qwen3.8 refuses a system message after the first: system message must be at the beginning";
    QWEN38_FOLD_ALL_INSTRUCTIONS = "qwen38_fold_all_instructions", "renderer",
        (number(32, 15, Some(1)), number(32, 15, Some(2))),
        "PR #17855, commit b8a627244",
        "model/renderers/qwen35.go normalizeQwen38Messages",
        new: "every system and developer message, wherever it is, is folded into one leading system turn (unless the only one is a system message first)",
        old: "only the leading run of system and developer messages is folded, and only when it holds a developer message; later ones stay where they are";
    PARSER_ERROR_ENDS_STREAM = "parser_error_ends_stream", "server",
        (number(32, 15, Some(1)), number(32, 15, Some(2))),
        "PR #17883, commit e0c95a5ff (issue #17825)",
        "server/routes.go ChatHandler, GenerateHandler",
        new: "a parser error mid-stream cancels the completion: the error is the last thing sent and the runner is released",
        old: "a parser error mid-stream is sent, but the completion never returns: the runner stays held, and the next request to the model hangs";
}

impl Default for Release {
    /// The newest supported release.
    fn default() -> Release {
        Release::NEWEST
    }
}

impl fmt::Display for Release {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.tag)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn releases_parse_by_tag_and_name_their_build() {
        for tag in [
            "0.32.15-rc0",
            "v0.32.15-rc1",
            "0.32.15-rc2",
            "v0.32.15",
            "0.33.0-rc0",
            "0.33.0-rc1",
            "0.33.0-rc2",
        ] {
            let r = Release::parse(tag).unwrap();
            assert_eq!(r.tag, tag.trim_start_matches('v'));
            assert_eq!(r.llama_cpp, Build::B10488);
        }
        for tag in ["0.32.14-rc0", "v0.32.14"] {
            assert_eq!(Release::parse(tag).unwrap().llama_cpp, Build::B10434);
        }
        for tag in [
            "0.32.10-rc0",
            "0.32.10-rc1",
            "0.32.10",
            "0.32.11",
            "0.32.12",
            "0.32.13",
        ] {
            assert_eq!(Release::parse(tag).unwrap().llama_cpp, Build::B10380);
        }
        assert_eq!(Release::NEWEST, *Release::SUPPORTED.last().unwrap());
        for tag in ["0.32.8-rc0", "0.32.8", "0.32.9"] {
            assert_eq!(Release::parse(tag).unwrap().llama_cpp, Build::B10353);
        }
        for tag in ["0.32.6-rc0", "0.32.6", "0.32.7"] {
            assert_eq!(Release::parse(tag).unwrap().llama_cpp, Build::B10242);
        }
        for tag in [
            "0.32.3-rc0",
            "0.32.3",
            "0.32.4-rc0",
            "0.32.4",
            "0.32.5-rc0",
            "0.32.5",
        ] {
            assert_eq!(Release::parse(tag).unwrap().llama_cpp, Build::B10091);
        }
        for tag in [
            "0.32.2-rc0",
            "0.32.2-rc1",
            "0.32.2-rc2",
            "0.32.2-rc3",
            "0.32.2",
        ] {
            assert_eq!(Release::parse(tag).unwrap().llama_cpp, Build::B10069);
        }
        for (tags, build) in [
            (&["0.30.11-rc0", "0.30.11-rc1", "0.30.11"][..], Build::B9781),
            (&["0.30.12-rc0", "0.31.0", "0.31.1"][..], Build::B9840),
            (
                &[
                    "0.31.2-rc0",
                    "0.31.2-rc1",
                    "0.31.2-rc2",
                    "0.31.2",
                    "0.32.0-rc0",
                    "0.32.0",
                    "0.32.1-rc0",
                    "0.32.1",
                ][..],
                Build::B9888,
            ),
        ] {
            for tag in tags {
                assert_eq!(Release::parse(tag).unwrap().llama_cpp, build, "{tag}");
            }
        }
        for (tags, build) in [
            (&["0.30.0"][..], Build::B9452),
            (
                &["0.30.1-rc0", "0.30.1", "0.30.2-rc0", "0.30.2", "0.30.3"][..],
                Build::B9479,
            ),
            (&["0.30.4-rc0", "0.30.4-rc1", "0.30.4"][..], Build::B9493),
            (
                &[
                    "0.30.5-rc0",
                    "0.30.5",
                    "0.30.6-rc0",
                    "0.30.6",
                    "0.30.7-rc0",
                    "0.30.7-rc1",
                    "0.30.7",
                    "0.30.8-rc0",
                    "0.30.8",
                ][..],
                Build::B9509,
            ),
            (
                &["0.30.9-rc0", "0.30.9-rc1", "0.30.9-rc2", "0.30.9"][..],
                Build::B9626,
            ),
            (&["0.30.10-rc0", "0.30.10-rc1", "0.30.10"][..], Build::B9672),
        ] {
            for tag in tags {
                assert_eq!(Release::parse(tag).unwrap().llama_cpp, build, "{tag}");
            }
        }
        // v0.30.0's release candidates came before it, on older builds
        let e = Release::parse("0.30.0-rc32").unwrap_err();
        assert_eq!(
            e,
            "Ollama \"0.30.0-rc32\" is not a supported release (supported: every release from 0.30.0 to 0.33.0-rc2)"
        );
    }

    #[test]
    fn tags_are_numbered_in_release_order() {
        let order = [
            "0.30.0-rc0",
            "0.30.0-rc32",
            "0.30.0",
            "0.30.11-rc1",
            "0.30.11",
            "0.30.12-rc0",
            "0.31.0",
            "0.32.15-rc2",
            "0.32.15",
            "0.33.0-rc0",
        ];
        let numbers: Vec<u32> = order.iter().map(|t| number_of(t).unwrap()).collect();
        assert!(numbers.windows(2).all(|w| w[0] < w[1]), "{numbers:?}");
        for (tag, n) in order.iter().zip(&numbers) {
            assert_eq!(name_of(*n), *tag);
        }
        for bad in [
            "1.0.0",
            "0.32",
            "0.32.15-rc",
            "0.32.x",
            "0.32.15.1",
            "",
            "0.32.100",
        ] {
            assert_eq!(number_of(bad), None, "{bad:?}");
        }
        // every supported release is numbered, and in order
        let supported: Vec<u32> = Release::SUPPORTED.iter().map(Release::number).collect();
        assert!(supported.windows(2).all(|w| w[0] <= w[1]));
    }

    #[test]
    fn a_release_has_the_rows_from_its_first_release_on() {
        let rc1 = Release::parse("0.32.15-rc1").unwrap();
        let rc2 = Release::parse("0.32.15-rc2").unwrap();
        assert!(!rc1.has(&QWEN38_FOLD_ALL_INSTRUCTIONS));
        assert!(rc2.has(&QWEN38_FOLD_ALL_INSTRUCTIONS));
        assert!(Release::NEWEST.has(&PARSER_ERROR_ENDS_STREAM));
        // a llama.cpp row is never an Ollama release's own
        assert!(!rc2.has(&crate::llamacpp::PRESERVE_REASONING_DEFAULT));
        let ids: Vec<_> = rc1.differences(&rc2).iter().map(|c| c.id).collect();
        assert_eq!(
            ids,
            ["qwen38_fold_all_instructions", "parser_error_ends_stream"]
        );
        assert!(rc2.differences(&Release::NEWEST).is_empty());
        assert_eq!(
            QWEN38_FOLD_ALL_INSTRUCTIONS.to_string(),
            "qwen38_fold_all_instructions (Ollama 0.32.15-rc2, PR #17855, commit b8a627244): every system and developer message, wherever it is, is folded into one leading system turn (unless the only one is a system message first); before: only the leading run of system and developer messages is folded, and only when it holds a developer message; later ones stay where they are"
        );
        assert_eq!(
            QWEN38_FOLD_ALL_INSTRUCTIONS.last_version_without(),
            "0.32.15-rc1"
        );
    }
}
