# The engine's native kernels (native/addon.c), built by node-gyp at install. Each kernel source
# (src/engine/kernels/<op>/<op>.c) is compiled once per ISA into a static library of its own, with
# that ISA's flags and a BOLTZMANN_ISA_* define that sets vec.h's vector width; the addon picks one
# at run time (__builtin_cpu_supports). x86-64: AVX-512 (16 lanes), AVX2 + FMA (8), SSE2 (4);
# arm64: NEON (4).
{
  "variables": {
    "kernel_sources": [
      "src/engine/kernels/adamW/adamW.c",
      "src/engine/kernels/crossEntropy/crossEntropy.c",
      "src/engine/kernels/elementwise/elementwise.c",
      "src/engine/kernels/gemm/fmaPeak.c",
      "src/engine/kernels/gemm/gemm.c",
      "src/engine/kernels/gemm/gemmDot.c",
      "src/engine/kernels/gemm/transpose.c",
      "src/engine/kernels/layerNorm/layerNorm.c",
      "src/engine/kernels/softmax/softmax.c",
      "src/engine/kernels/transfer/transfer.c",
      "src/engine/kernels/transfer/transferWide.c",
    ],
    "kernel_cflags": ["-O3", "-std=gnu11", "-fno-math-errno", "-ffp-contract=fast", "-fPIC"],
  },
  "target_defaults": {
    "include_dirs": ["native"],
    "cflags_c": ["<@(kernel_cflags)"],
    "xcode_settings": {"OTHER_CFLAGS": ["<@(kernel_cflags)"]},
  },
  "conditions": [
    ["target_arch=='x64'", {
      "targets": [
        {"target_name": "kernels_avx512", "type": "static_library", "sources": ["<@(kernel_sources)"],
         "defines": ["BOLTZMANN_ISA_AVX512"],
         "cflags_c": ["-mavx512f", "-mavx512vl", "-mavx2", "-mfma", "-mprefer-vector-width=512"],
         "xcode_settings": {"OTHER_CFLAGS": ["-mavx512f", "-mavx512vl", "-mavx2", "-mfma"]}},
        {"target_name": "kernels_avx2", "type": "static_library", "sources": ["<@(kernel_sources)"],
         "defines": ["BOLTZMANN_ISA_AVX2"], "cflags_c": ["-mavx2", "-mfma"],
         "xcode_settings": {"OTHER_CFLAGS": ["-mavx2", "-mfma"]}},
        {"target_name": "kernels_base", "type": "static_library", "sources": ["<@(kernel_sources)"],
         "defines": ["BOLTZMANN_ISA_BASE"]},
        {"target_name": "boltzmann_engine", "sources": ["native/addon.c"],
         "dependencies": ["kernels_avx512", "kernels_avx2", "kernels_base"]},
      ],
    }],
    ["target_arch=='arm64'", {
      "targets": [
        {"target_name": "kernels_neon", "type": "static_library", "sources": ["<@(kernel_sources)"],
         "defines": ["BOLTZMANN_ISA_NEON"]},
        {"target_name": "boltzmann_engine", "sources": ["native/addon.c"],
         "dependencies": ["kernels_neon"]},
      ],
    }],
  ],
}
