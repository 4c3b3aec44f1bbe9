//! The adapter and device, the compiled pipelines, and the small helpers
//! every kernel's dispatch uses.

use crate::shaders::Fma;
use crate::Error;
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;

/// What the adapter is, for the user ("what runs where").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AdapterInfo {
    /// The adapter's description (may be empty in a browser).
    pub name: String,
    /// Whether the browser calls it a fallback (software) adapter.
    pub fallback: bool,
    /// The WebGPU features it offers, by their WebGPU names.
    pub features: Vec<String>,
    /// Its largest storage-buffer binding, bytes.
    pub max_storage_binding: u64,
    /// The kernels' fused multiply-add: the adapter's where the probe
    /// found it exact, else emulated.
    pub fma: Fma,
    /// Why the adapter's `fma` is not used (the probe's finding), if not.
    pub fma_probe: Option<String>,
}

/// A WebGPU device and what the model's kernels need of it.
pub struct Gpu {
    pub(crate) device: wgpu::Device,
    pub(crate) queue: wgpu::Queue,
    info: AdapterInfo,
    pub(crate) max_binding: u64,
    pub(crate) fma: Fma,
    pipelines: RefCell<HashMap<String, wgpu::ComputePipeline>>,
    /// The first error the device reported outside an error scope.
    pub(crate) uncaptured: Arc<std::sync::Mutex<Option<String>>>,
}

/// What [`Gpu::new`] says when the browser gives no adapter. wgpu's own
/// text lists the native backends it did not request ("noop not requested,
/// vulkan not requested, ..."), which says nothing to someone in a browser.
pub const NO_ADAPTER: &str =
    "this browser offers no WebGPU adapter (WebGPU is turned off or not supported here)";

impl Gpu {
    /// The browser's WebGPU adapter (high-performance preference) and a
    /// device with the adapter's limits, its `fma` probed (see
    /// [`crate::probe`]). An error says why there is none (no WebGPU in
    /// this browser or build, no adapter, no device).
    pub async fn new() -> Result<Gpu, Error> {
        Gpu::with_fma(None).await
    }

    /// [`Gpu::new`] with the fused multiply-add chosen rather than probed
    /// (`Some`; the tests run both modes), or probed (`None`).
    pub async fn with_fma(choice: Option<Fma>) -> Result<Gpu, Error> {
        let mut desc = wgpu::InstanceDescriptor::new_without_display_handle();
        desc.backends = wgpu::Backends::BROWSER_WEBGPU;
        let instance = wgpu::Instance::new(desc);
        let adapter = instance
            .request_adapter(&wgpu::RequestAdapterOptions {
                power_preference: wgpu::PowerPreference::HighPerformance,
                ..Default::default()
            })
            .await
            .map_err(|_| Error(NO_ADAPTER.into()))?;
        let limits = adapter.limits();
        let info = adapter.get_info();
        let features = adapter.features();
        let (device, queue) = adapter
            .request_device(&wgpu::DeviceDescriptor {
                label: Some("promptscope"),
                required_features: wgpu::Features::empty(),
                required_limits: limits.clone(),
                ..Default::default()
            })
            .await
            .map_err(|e| Error(format!("the WebGPU adapter gave no device: {e}")))?;
        let uncaptured = Arc::new(std::sync::Mutex::new(None::<String>));
        let sink = uncaptured.clone();
        device.on_uncaptured_error(Arc::new(move |e: wgpu::Error| {
            if let Ok(mut first) = sink.lock() {
                first.get_or_insert_with(|| e.to_string());
            }
        }));
        let max_binding = limits
            .max_storage_buffer_binding_size
            .min(limits.max_buffer_size);
        let mut gpu = Gpu {
            device,
            queue,
            info: AdapterInfo {
                name: info.name,
                fallback: info.device_type == wgpu::DeviceType::Cpu,
                features: feature_names(features),
                max_storage_binding: max_binding,
                fma: Fma::Emulated,
                fma_probe: None,
            },
            max_binding,
            fma: Fma::Emulated,
            pipelines: RefCell::new(HashMap::new()),
            uncaptured,
        };
        let fma = match choice {
            Some(f) => f,
            None => match gpu.probe_fma().await {
                Ok(()) => Fma::Native,
                Err(why) => {
                    gpu.info.fma_probe = Some(why);
                    Fma::Emulated
                }
            },
        };
        gpu.fma = fma;
        gpu.info.fma = fma;
        Ok(gpu)
    }

    /// Runs the adapter's `fma` on [`crate::probe::cases`] and compares
    /// every result with the CPU's.
    async fn probe_fma(&self) -> Result<(), String> {
        let cases = crate::probe::cases();
        let input: Vec<f32> = cases.iter().flatten().copied().collect();
        let scope = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let p = self.pipeline("fma probe", crate::shaders::FMA_PROBE, "main");
        let inb = self.floats("fma probe in", &input);
        let out = self.scratch("fma probe out", cases.len());
        let bind = self.bind(&p, &[(0, &inb), (1, &out)]);
        let mut enc = self.device.create_command_encoder(&Default::default());
        {
            let mut pass = enc.begin_compute_pass(&Default::default());
            pass.set_pipeline(&p);
            pass.set_bind_group(0, &bind, &[]);
            pass.dispatch_workgroups((cases.len() as u32).div_ceil(64), 1, 1);
        }
        self.queue.submit([enc.finish()]);
        let got = self
            .read(&out, (cases.len() * 4) as u64)
            .await
            .map_err(|e| format!("the probe could not run: {e}"))?;
        if let Some(e) = scope.pop().await {
            return Err(format!("the probe could not run: {e}"));
        }
        crate::probe::check(&cases, &got)
    }

    /// The fused multiply-add the kernels use on this device.
    pub fn fma(&self) -> Fma {
        self.fma
    }

    /// The adapter.
    pub fn info(&self) -> &AdapterInfo {
        &self.info
    }

    /// The pipeline of one of the graph's kernels.
    pub(crate) fn kernel(&self, k: crate::shaders::Kernel, entry: &str) -> wgpu::ComputePipeline {
        self.pipeline(k.name(), &k.source(self.fma), entry)
    }

    /// The compute pipeline of `entry` in `source`, compiled once (its bind
    /// group layout derived from the shader).
    pub(crate) fn pipeline(&self, key: &str, source: &str, entry: &str) -> wgpu::ComputePipeline {
        let key = format!("{key}:{entry}");
        if let Some(p) = self.pipelines.borrow().get(&key) {
            return p.clone();
        }
        let module = self
            .device
            .create_shader_module(wgpu::ShaderModuleDescriptor {
                label: Some(&key),
                source: wgpu::ShaderSource::Wgsl(source.into()),
            });
        let p = self
            .device
            .create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: Some(&key),
                layout: None,
                module: &module,
                entry_point: Some(entry),
                compilation_options: Default::default(),
                cache: None,
            });
        self.pipelines.borrow_mut().insert(key, p.clone());
        p
    }

    /// A storage buffer holding `bytes` (padded to whole words, plus one
    /// word so that a kernel's two-word read at the end stays inside).
    pub(crate) fn storage(&self, label: &str, bytes: &[u8]) -> wgpu::Buffer {
        let size = (bytes.len().div_ceil(4) + 1) * 4;
        let buf = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(label),
            size: size as u64,
            usage: wgpu::BufferUsages::STORAGE
                | wgpu::BufferUsages::COPY_DST
                | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        // whole words as they are, the last partial word padded
        let whole = bytes.len() / 4 * 4;
        if whole > 0 {
            self.queue.write_buffer(&buf, 0, &bytes[..whole]);
        }
        if whole < bytes.len() {
            let mut tail = [0u8; 4];
            tail[..bytes.len() - whole].copy_from_slice(&bytes[whole..]);
            self.queue.write_buffer(&buf, whole as u64, &tail);
        }
        buf
    }

    /// A storage buffer of f32 values.
    pub(crate) fn floats(&self, label: &str, values: &[f32]) -> wgpu::Buffer {
        let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        self.storage(label, &bytes)
    }

    /// A zeroed storage buffer of `words` 32-bit words (at least one).
    pub(crate) fn scratch(&self, label: &str, words: usize) -> wgpu::Buffer {
        self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(label),
            size: (words.max(1) * 4) as u64,
            usage: wgpu::BufferUsages::STORAGE
                | wgpu::BufferUsages::COPY_SRC
                | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        })
    }

    /// A uniform buffer of 32-bit words (padded to 16 bytes).
    pub(crate) fn uniform(&self, label: &str, words: &[u32]) -> wgpu::Buffer {
        let mut bytes: Vec<u8> = words.iter().flat_map(|v| v.to_le_bytes()).collect();
        bytes.resize(bytes.len().div_ceil(16).max(1) * 16, 0);
        let buf = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(label),
            size: bytes.len() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        self.queue.write_buffer(&buf, 0, &bytes);
        buf
    }

    /// A bind group of `pipeline`'s group 0: each buffer at its binding.
    pub(crate) fn bind(
        &self,
        pipeline: &wgpu::ComputePipeline,
        buffers: &[(u32, &wgpu::Buffer)],
    ) -> wgpu::BindGroup {
        let layout = pipeline.get_bind_group_layout(0);
        let entries: Vec<wgpu::BindGroupEntry> = buffers
            .iter()
            .map(|&(binding, b)| wgpu::BindGroupEntry {
                binding,
                resource: b.as_entire_binding(),
            })
            .collect();
        self.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: None,
            layout: &layout,
            entries: &entries,
        })
    }

    /// Reads `bytes` bytes of `buffer` back (copied to a mappable buffer,
    /// mapped asynchronously).
    pub(crate) async fn read(&self, buffer: &wgpu::Buffer, bytes: u64) -> Result<Vec<f32>, Error> {
        let staging = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("readback"),
            size: bytes,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let mut enc = self.device.create_command_encoder(&Default::default());
        enc.copy_buffer_to_buffer(buffer, 0, &staging, 0, bytes);
        self.queue.submit([enc.finish()]);
        map_read(&self.device, &staging).await
    }

    /// The error the device reported outside error scopes, if any.
    pub(crate) fn take_error(&self) -> Option<String> {
        self.uncaptured.lock().ok().and_then(|mut e| e.take())
    }
}

/// Maps `staging` for reading and copies its f32 values out.
pub(crate) async fn map_read(
    device: &wgpu::Device,
    staging: &wgpu::Buffer,
) -> Result<Vec<f32>, Error> {
    let (tx, rx) = futures_channel::oneshot::channel();
    staging.slice(..).map_async(wgpu::MapMode::Read, move |r| {
        let _ = tx.send(r);
    });
    // natively the callback needs a poll; in a browser the promise settles
    let _ = device.poll(wgpu::PollType::wait_indefinitely());
    rx.await
        .map_err(|_| Error("the GPU dropped the read of the logits".into()))?
        .map_err(|e| Error(format!("reading the logits back failed: {e}")))?;
    let out = {
        let view = staging
            .slice(..)
            .get_mapped_range()
            .map_err(|e| Error(format!("reading the logits back failed: {e}")))?;
        view.chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect()
    };
    staging.unmap();
    Ok(out)
}

/// WebGPU's names of the features wgpu reports.
fn feature_names(f: wgpu::Features) -> Vec<String> {
    let mut out: Vec<String> = f
        .iter_names()
        .map(|(name, _)| name.to_ascii_lowercase().replace('_', "-"))
        .collect();
    out.sort();
    out
}

/// Workgroup counts for `groups` workgroups, split over x and y where one
/// dimension cannot hold them (the kernels bound-check).
pub(crate) fn grid(groups: u32) -> (u32, u32) {
    const MAX: u32 = 65_535;
    if groups <= MAX {
        (groups.max(1), 1)
    } else {
        (MAX, groups.div_ceil(MAX))
    }
}

#[cfg(test)]
mod tests {
    use super::grid;

    #[test]
    fn grids_cover_every_group() {
        for g in [0u32, 1, 64, 65_535, 65_536, 262_144, 1 << 22] {
            let (x, y) = grid(g);
            assert!(x <= 65_535 && y <= 65_535);
            assert!(x * y >= g);
            assert!(x * (y - 1) < g.max(1));
        }
    }
}
