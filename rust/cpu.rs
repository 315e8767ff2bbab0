//! The CPU's kernels, detected once: which instruction-set copy of the hot loops (the random
//! hands, the solver, the search's walk, playouts and draw) this machine runs. Every copy
//! computes the same results; they differ only in speed (docs/SEARCH.md "Speed").
//!
//! A [`KernelSet`] is the proof that the CPU has a kernel's extensions: only this module makes
//! one, after detecting them, so [`KernelSet::run`] is where the `unsafe` of "the features are
//! present" is written, once, for every call site. `TARABISH_KERNEL=portable|bmi2|avx512`
//! forces one (for tests and benchmarks); a kernel the CPU lacks is refused with the missing
//! extension named ([`KernelError`]). Unforced, the fastest kernel the CPU runs is chosen. On
//! AMD CPUs whose BMI2 `pdep` is microcoded (before Zen 3) the BMI2 kernel picks a mask's k-th
//! card by the portable kernel's broadword select instead (a copy of its own, with the same
//! results); on x86-64 CPUs with x86-64-v2's extensions (POPCNT, SSE3 to SSE4.2) the portable
//! kernel runs a copy compiled for them. Off x86-64 the portable kernel is the only one.

use std::fmt;
use std::sync::OnceLock;

/// The environment variable that forces a kernel.
pub const KERNEL_VARIABLE: &str = "TARABISH_KERNEL";

/// An instruction-set copy of the hot loops, slowest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kernel {
    /// Baseline instructions of the target (x86-64, aarch64, ...); on x86-64 a copy compiled
    /// for x86-64-v2 where the CPU has it.
    Portable,
    /// x86-64 with BMI1, BMI2, POPCNT and AVX2 (`pdep` picks a mask's k-th card; a mask's size
    /// is one instruction; the search's walk scores a node's children in AVX2 registers).
    /// Intel and AMD brought BMI2 and AVX2 together (Haswell, Excavator); a CPU with BMI2 but
    /// not AVX2 runs the portable kernel.
    Bmi2,
    /// And the AVX-512 extensions of the vector playout, draw and walk (rust/search/*/avx512.rs).
    Avx512,
}

/// The extensions of [`Kernel::Bmi2`], as `is_x86_feature_detected!` and `target_feature` name
/// them.
const BMI2_FEATURES: [&str; 4] = ["bmi1", "bmi2", "popcnt", "avx2"];
/// The extensions of x86-64-v2 (Intel since Nehalem, 2008; AMD since Bulldozer, 2011) that the
/// portable kernel's x86-64 copy is compiled for where the CPU has them: POPCNT makes a mask's
/// size one instruction, SSE3 to SSE4.2 let the compiler widen some loops. A CPU without them
/// (Core 2, the first x86-64 CPUs) runs the copy compiled for the baseline.
const V2_FEATURES: [&str; 5] = ["popcnt", "sse3", "ssse3", "sse4.1", "sse4.2"];
/// The extensions [`Kernel::Avx512`] adds.
const AVX512_FEATURES: [&str; 9] = [
    "avx512f",
    "avx512bw",
    "avx512dq",
    "avx512vl",
    "avx512cd",
    "avx512vpopcntdq",
    "avx512bitalg",
    "avx512vbmi",
    "avx512ifma",
];

impl Kernel {
    /// Every kernel, slowest first.
    pub const ALL: [Kernel; 3] = [Kernel::Portable, Kernel::Bmi2, Kernel::Avx512];

    /// The kernel's name, as `TARABISH_KERNEL` takes it.
    pub const fn name(self) -> &'static str {
        match self {
            Kernel::Portable => "portable",
            Kernel::Bmi2 => "bmi2",
            Kernel::Avx512 => "avx512",
        }
    }

    /// The CPU extensions the kernel needs beyond the target's baseline.
    fn features(self) -> impl Iterator<Item = &'static str> {
        let (bmi2, avx512): (&[&str], &[&str]) = match self {
            Kernel::Portable => (&[], &[]),
            Kernel::Bmi2 => (&BMI2_FEATURES, &[]),
            Kernel::Avx512 => (&BMI2_FEATURES, &AVX512_FEATURES),
        };
        bmi2.iter().chain(avx512).copied()
    }

    /// The first of the kernel's extensions this CPU lacks (every one off x86-64 but the
    /// portable kernel's none).
    fn missing(self) -> Option<&'static str> {
        self.features().find(|&feature| !detected(feature))
    }
}

/// Whether the CPU has `feature` (std caches the answer).
fn detected(feature: &str) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        match feature {
            "bmi1" => std::is_x86_feature_detected!("bmi1"),
            "bmi2" => std::is_x86_feature_detected!("bmi2"),
            "popcnt" => std::is_x86_feature_detected!("popcnt"),
            "sse3" => std::is_x86_feature_detected!("sse3"),
            "ssse3" => std::is_x86_feature_detected!("ssse3"),
            "sse4.1" => std::is_x86_feature_detected!("sse4.1"),
            "sse4.2" => std::is_x86_feature_detected!("sse4.2"),
            "avx2" => std::is_x86_feature_detected!("avx2"),
            "avx512f" => std::is_x86_feature_detected!("avx512f"),
            "avx512bw" => std::is_x86_feature_detected!("avx512bw"),
            "avx512dq" => std::is_x86_feature_detected!("avx512dq"),
            "avx512vl" => std::is_x86_feature_detected!("avx512vl"),
            "avx512cd" => std::is_x86_feature_detected!("avx512cd"),
            "avx512vpopcntdq" => std::is_x86_feature_detected!("avx512vpopcntdq"),
            "avx512bitalg" => std::is_x86_feature_detected!("avx512bitalg"),
            "avx512vbmi" => std::is_x86_feature_detected!("avx512vbmi"),
            "avx512ifma" => std::is_x86_feature_detected!("avx512ifma"),
            _ => false,
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = feature;
        false
    }
}

/// Whether this CPU's vendor and family run BMI2's `pdep` in microcode
/// ([`slow_pdep::microcoded_pdep`]; a CPU of those without BMI2 runs the portable kernel anyway).
fn pdep_is_microcoded() -> bool {
    #[cfg(target_arch = "x86_64")]
    return slow_pdep::this_cpu_microcodes_pdep();
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// x86-64 CPUs whose BMI2 `pdep` is slow, told by CPUID.
#[cfg(target_arch = "x86_64")]
mod slow_pdep {
    use core::arch::x86_64::__cpuid;

    /// The CPUID vendors of AMD's x86-64 CPUs and of Hygon's (licensed Zen cores).
    const VENDORS: [&[u8; 12]; 2] = [b"AuthenticAMD", b"HygonGenuine"];
    /// The first AMD CPU family whose `pdep` is an instruction of a few cycles (Zen 3, 19h):
    /// Excavator (15h), Zen, Zen+ and Zen 2 (17h) and Hygon's Dhyana (18h) have BMI2 but run
    /// `pdep` in microcode, from some 18 cycles to hundreds as the mask's set bits grow, many
    /// times the portable select (and a microcoded instruction holds up the decoding of the
    /// interleaved playouts around it).
    const FIRST_FAST_FAMILY: u32 = 0x19;
    /// The family field of CPUID leaf 1's signature (bits 8-11), whose all-ones value says
    /// the extended family (bits 20-27) is added to it.
    const BASE_FAMILY_SHIFT: u32 = 8;
    const BASE_FAMILY_MASK: u32 = 0xF;
    const EXTENDED_FAMILY_SHIFT: u32 = 20;
    const EXTENDED_FAMILY_MASK: u32 = 0xFF;
    /// CPUID's leaves: the vendor, and the signature.
    const VENDOR_LEAF: u32 = 0;
    const SIGNATURE_LEAF: u32 = 1;

    /// Whether a CPU of `vendor` (CPUID leaf 0) and `signature` (leaf 1's EAX) runs `pdep` in
    /// microcode: AMD and Hygon families before [`FIRST_FAST_FAMILY`] (Intel's has been one
    /// fast instruction since BMI2 came, with Haswell).
    pub(super) fn microcoded_pdep(vendor: &[u8; 12], signature: u32) -> bool {
        let base = signature >> BASE_FAMILY_SHIFT & BASE_FAMILY_MASK;
        let family = if base == BASE_FAMILY_MASK {
            base + (signature >> EXTENDED_FAMILY_SHIFT & EXTENDED_FAMILY_MASK)
        } else {
            base
        };
        VENDORS.contains(&vendor) && family < FIRST_FAST_FAMILY
    }

    /// [`microcoded_pdep`] of this CPU.
    pub(super) fn this_cpu_microcodes_pdep() -> bool {
        // SAFETY: every x86-64 CPU has CPUID (the intrinsic is unsafe in older toolchains).
        #[allow(unused_unsafe)]
        let (vendor, signature) = unsafe { (__cpuid(VENDOR_LEAF), __cpuid(SIGNATURE_LEAF).eax) };
        let mut name = [0u8; 12];
        // The vendor's twelve characters are EBX, EDX and ECX, in that order.
        for (bytes, register) in name
            .chunks_exact_mut(4)
            .zip([vendor.ebx, vendor.edx, vendor.ecx])
        {
            bytes.copy_from_slice(&register.to_le_bytes());
        }
        microcoded_pdep(&name, signature)
    }
}

/// Why a kernel cannot run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KernelError {
    /// `TARABISH_KERNEL` names no kernel.
    Unknown(String),
    /// The CPU lacks an extension the kernel needs.
    Missing {
        /// The kernel asked for.
        kernel: Kernel,
        /// The first extension it needs that the CPU lacks.
        feature: &'static str,
    },
}

impl fmt::Display for KernelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names = Kernel::ALL.map(Kernel::name).join(", ");
        match self {
            KernelError::Unknown(name) => write!(
                f,
                "{KERNEL_VARIABLE}={name:?} names no kernel: expected one of {names}"
            ),
            KernelError::Missing { kernel, feature } => write!(
                f,
                "{KERNEL_VARIABLE}={}: this CPU lacks {feature}, which the {} kernel needs \
                 (it runs {})",
                kernel.name(),
                kernel.name(),
                KernelSet::available()
                    .map(KernelSet::name)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }
}

impl std::error::Error for KernelError {}

/// A kernel this CPU runs: only this module makes one, after detecting the kernel's
/// extensions, so holding one proves the CPU has them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KernelSet {
    kernel: Kernel,
    /// Whether the kernel's copy picks a mask's k-th card by BMI2's `pdep`: not in the portable
    /// kernel, nor where the CPU runs `pdep` in microcode ([`pdep_is_microcoded`]).
    pdep: bool,
    /// Whether the portable kernel runs its copy compiled for x86-64-v2 ([`V2_FEATURES`]):
    /// where the CPU has them, on x86-64.
    v2: bool,
}

/// Work with a copy for each kernel: [`KernelSet::run`] calls [`Job::run`] with the kernel's
/// instruction sets enabled, so the copy inlined into it is compiled for them.
pub trait Job {
    /// What the work returns.
    type Output;
    /// Whether the work has an AVX-512 copy; without one the AVX-512 kernel runs the BMI2
    /// copy (compiled for BMI2 alone, as a CPU without AVX-512 runs it).
    const AVX512: bool = false;

    /// Does the work. Implementations are `#[inline(always)]`, so that the kernel's copy is
    /// compiled inside [`KernelSet::run`]'s target-feature function. `PDEP` says whether to
    /// pick a mask's k-th card by `pdep` (only with `BMI2`; `select_with` in rust/bits.rs).
    ///
    /// # Safety
    /// With `BMI2 = true` the CPU has BMI1, BMI2, POPCNT and AVX2; with `AVX512 = true` also every
    /// extension of [`Kernel::Avx512`]; `PDEP = true` only with `BMI2 = true`.
    unsafe fn run<const BMI2: bool, const AVX512: bool, const PDEP: bool>(self) -> Self::Output;
}

impl KernelSet {
    /// The portable kernel's baseline copy, which every CPU runs.
    pub const PORTABLE: KernelSet = KernelSet {
        kernel: Kernel::Portable,
        pdep: false,
        v2: false,
    };

    /// `kernel`, if this CPU runs it.
    pub fn of(kernel: Kernel) -> Result<KernelSet, KernelError> {
        match kernel.missing() {
            None => Ok(KernelSet {
                kernel,
                pdep: kernel != Kernel::Portable && !pdep_is_microcoded(),
                v2: kernel == Kernel::Portable && V2_FEATURES.iter().all(|f| detected(f)),
            }),
            Some(feature) => Err(KernelError::Missing { kernel, feature }),
        }
    }

    /// The kernel.
    pub const fn kernel(self) -> Kernel {
        self.kernel
    }

    /// The kernel's name.
    pub const fn name(self) -> &'static str {
        self.kernel.name()
    }

    /// Whether the kernel has BMI2 (with BMI1, POPCNT and AVX2).
    pub const fn bmi2(self) -> bool {
        !matches!(self.kernel, Kernel::Portable)
    }

    /// Whether the kernel has the AVX-512 extensions.
    pub const fn avx512(self) -> bool {
        matches!(self.kernel, Kernel::Avx512)
    }

    /// This kernel with the broadword select instead of `pdep`, as a CPU whose `pdep` is
    /// microcoded runs it, for the tests that compare every copy.
    #[cfg(test)]
    pub(crate) const fn without_pdep(self) -> KernelSet {
        KernelSet {
            pdep: false,
            ..self
        }
    }

    /// The portable kernel's copy for the x86-64 baseline, as a CPU without x86-64-v2 runs
    /// it, for the tests that compare every copy.
    #[cfg(test)]
    pub(crate) const fn without_v2(self) -> KernelSet {
        KernelSet { v2: false, ..self }
    }

    /// Every kernel this CPU runs, slowest first.
    pub fn available() -> impl Iterator<Item = KernelSet> {
        Kernel::ALL
            .into_iter()
            .filter_map(|kernel| KernelSet::of(kernel).ok())
    }

    /// The kernel `TARABISH_KERNEL` names (unset or empty: the fastest this CPU runs), read
    /// and checked once.
    pub fn selected() -> Result<KernelSet, KernelError> {
        static SELECTED: OnceLock<Result<KernelSet, KernelError>> = OnceLock::new();
        SELECTED
            .get_or_init(|| match std::env::var(KERNEL_VARIABLE) {
                Ok(name) if !name.is_empty() => {
                    let kernel = Kernel::ALL.into_iter().find(|k| k.name() == name);
                    KernelSet::of(kernel.ok_or(KernelError::Unknown(name))?)
                }
                _ => Ok(KernelSet::available().last().unwrap_or(KernelSet::PORTABLE)),
            })
            .clone()
    }

    /// The kernel every hot loop runs: [`KernelSet::selected`]'s. The Python module refuses to import when
    /// `TARABISH_KERNEL` is refused; elsewhere such a setting stops the program here, naming it.
    #[inline]
    pub fn chosen() -> KernelSet {
        match KernelSet::selected() {
            Ok(kernel) => kernel,
            Err(error) => panic!("{error}"),
        }
    }

    /// `job`'s copy for this kernel.
    #[inline]
    pub fn run<J: Job>(self, job: J) -> J::Output {
        match self.kernel {
            // SAFETY: a portable KernelSet with `v2` exists only where the CPU has x86-64-v2's
            // extensions (`KernelSet::of`), which are all the copy's.
            #[cfg(target_arch = "x86_64")]
            Kernel::Portable if self.v2 => unsafe { run_portable_v2(job) },
            // SAFETY: the portable copy has no requirement.
            Kernel::Portable => unsafe { job.run::<false, false, false>() },
            // SAFETY: a KernelSet of AVX-512 exists only where the CPU has its extensions
            // (`KernelSet::of`), which is all the copy needs. (No CPU with AVX-512 has a
            // microcoded `pdep`: AMD's first is Zen 4.)
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx512 if J::AVX512 && self.pdep => unsafe { run_avx512(job) },
            // SAFETY: likewise for BMI2's, which the AVX-512 kernel's extensions include.
            #[cfg(target_arch = "x86_64")]
            Kernel::Bmi2 | Kernel::Avx512 if self.pdep => unsafe { run_bmi2::<J, true>(job) },
            // SAFETY: as above.
            #[cfg(target_arch = "x86_64")]
            Kernel::Bmi2 | Kernel::Avx512 => unsafe { run_bmi2::<J, false>(job) },
            // SAFETY: the portable copy has no requirement (`KernelSet::of` refuses the others
            // off x86-64).
            #[cfg(not(target_arch = "x86_64"))]
            Kernel::Bmi2 | Kernel::Avx512 => unsafe { job.run::<false, false, false>() },
        }
    }
}

/// The portable copy compiled for x86-64-v2.
///
/// # Safety
/// The CPU has every extension of [`V2_FEATURES`].
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,sse3,ssse3,sse4.1,sse4.2")]
unsafe fn run_portable_v2<J: Job>(job: J) -> J::Output {
    // SAFETY: the portable copy has no requirement.
    unsafe { job.run::<false, false, false>() }
}

/// The BMI2 copy, selecting by `pdep` with `PDEP = true`.
///
/// # Safety
/// The CPU has BMI1, BMI2, POPCNT and AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi1,bmi2,popcnt,avx2")]
unsafe fn run_bmi2<J: Job, const PDEP: bool>(job: J) -> J::Output {
    // SAFETY: this function's features are the copy's.
    unsafe { job.run::<true, false, PDEP>() }
}

/// # Safety
/// The CPU has every extension of [`Kernel::Avx512`].
// Compiled with the walk's extensions (rust/search/ismcts/avx512.rs) only: the vector playout
// and draw enable the rest themselves and stay calls of their own, outside the walk's loop.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512bitalg")]
unsafe fn run_avx512<J: Job>(job: J) -> J::Output {
    // SAFETY: this function's features are the copy's.
    unsafe { job.run::<true, true, true>() }
}

/// The kernels a test compares: every one this CPU runs, and the BMI2 copy with the broadword
/// select where the CPU runs that kernel with `pdep`, named on the test's output.
#[cfg(test)]
pub(crate) fn kernels_compared(test: &str) -> Vec<KernelSet> {
    let mut kernels: Vec<KernelSet> = KernelSet::available().collect();
    // The BMI2 copy with the broadword select, as a CPU with a microcoded `pdep` runs it.
    if let Some(bmi2) = kernels.iter().find(|k| k.kernel == Kernel::Bmi2 && k.pdep) {
        kernels.push(bmi2.without_pdep());
    }
    // The portable copy for the baseline, as a CPU without x86-64-v2 runs it.
    if let Some(portable) = kernels.iter().find(|k| k.v2) {
        kernels.push(portable.without_v2());
    }
    let names: Vec<String> = kernels
        .iter()
        .map(|k| match (k.bmi2(), k.pdep, k.v2) {
            (true, false, _) => format!("{} without pdep", k.name()),
            (false, _, true) => format!("{} for x86-64-v2", k.name()),
            (false, _, false) if cfg!(target_arch = "x86_64") => {
                format!("{} for the x86-64 baseline", k.name())
            }
            _ => k.name().to_string(),
        })
        .collect();
    eprintln!("{test}: compared on the kernels {}", names.join(", "));
    kernels
}

/// `kernel` for a test of its vector code, or `None` (said on the test's output, with the
/// extension the CPU lacks) where the CPU does not run it.
#[cfg(all(test, target_arch = "x86_64"))]
pub(crate) fn kernel_for(test: &str, kernel: Kernel) -> Option<KernelSet> {
    match KernelSet::of(kernel) {
        Ok(kernel) => Some(kernel),
        Err(error) => {
            eprintln!("{test}: {} copy not run, {error}", kernel.name());
            None
        }
    }
}

/// The variable .ci/cross.sh sets on the Rust tests it runs under qemu, where an instruction
/// costs ten to twenty native ones.
#[cfg(test)]
const EMULATED_VARIABLE: &str = "TARABISH_TEST_EMULATED";
/// The share of a long test loop's cases run under emulation: each case still runs on the
/// emulated CPU (its kernels, its code generation), and the native run runs them all.
#[cfg(test)]
const EMULATED_SHARE: u64 = 4;

/// The cases a long test loop runs: `native`, or a quarter of them (at least one) under
/// emulation ([`EMULATED_VARIABLE`]); said on the test's output when cut.
#[cfg(test)]
pub(crate) fn test_cases(test: &str, native: u64) -> u64 {
    if std::env::var_os(EMULATED_VARIABLE).is_none() {
        return native;
    }
    let cases = native.div_ceil(EMULATED_SHARE);
    eprintln!("{test}: {cases} of {native} cases under emulation ({EMULATED_VARIABLE})");
    cases
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The portable kernel runs everywhere, the kernels are nested (each has the slower
    /// ones' extensions), and a kernel the CPU lacks is refused naming an extension it lacks.
    #[test]
    fn kernels_are_detected_nested_and_refused_by_name() {
        let kernels: Vec<Kernel> = KernelSet::available().map(KernelSet::kernel).collect();
        eprintln!("this CPU runs the kernels {kernels:?}");
        assert_eq!(kernels, Kernel::ALL[..kernels.len()]);
        for kernel in Kernel::ALL {
            match KernelSet::of(kernel) {
                Ok(set) => assert!(kernels.contains(&set.kernel())),
                Err(KernelError::Missing { feature, .. }) => {
                    assert!(!detected(feature) && !kernels.contains(&kernel));
                    let message = KernelError::Missing { kernel, feature }.to_string();
                    assert!(message.contains(feature) && message.contains(kernel.name()));
                }
                Err(error) => panic!("{error}"),
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        assert_eq!(kernels, [Kernel::Portable]);
    }

    /// CPUID signatures of real CPUs: AMD's with a microcoded `pdep` (and Hygon's) are told
    /// apart (their BMI2 kernel selects without it), Zen 3 and later and Intel's are not.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn microcoded_pdep_is_told_by_vendor_and_family() {
        use super::slow_pdep::microcoded_pdep;
        let microcoded = [
            (b"AuthenticAMD", 0x0066_0F01), // Excavator (family 15h)
            (b"AuthenticAMD", 0x0080_0F12), // EPYC Naples, Zen (17h)
            (b"AuthenticAMD", 0x0083_0F10), // EPYC Rome, Zen 2 (17h)
            (b"HygonGenuine", 0x0090_0F01), // Dhyana (18h)
        ];
        let fast = [
            (b"AuthenticAMD", 0x00A0_0F11), // EPYC Milan, Zen 3 (19h)
            (b"AuthenticAMD", 0x00A1_0F11), // EPYC Genoa, Zen 4 (19h)
            (b"AuthenticAMD", 0x00B0_0F21), // Zen 5 (1Ah)
            (b"GenuineIntel", 0x0003_06C3), // Haswell
            (b"GenuineIntel", 0x0005_0657), // Cascade Lake
        ];
        for (vendor, signature) in microcoded {
            assert!(microcoded_pdep(vendor, signature), "{signature:#x}");
        }
        for (vendor, signature) in fast {
            assert!(!microcoded_pdep(vendor, signature), "{signature:#x}");
        }
    }
}
