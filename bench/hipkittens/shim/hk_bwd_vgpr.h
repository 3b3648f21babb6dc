/* Force-included into HipKittens' CDNA4 attention backward programs only
 * (bench/hipkittens/cdna4_kernels.cmake); the fixture is compiled as it is.
 *
 * The dQ/dK/dV kernel is declared __attribute__((amdgpu_num_vgpr(30))) (29
 * in the causal ones): the compiler's own values must stay in v0-v29, since
 * the kernel's tiles sit in v30-v255 and a0-a255, named in its asm text.
 * Upstream LLVM (Debian's clang-22) reads the attribute as a budget of 2*N
 * registers for VGPRs and AGPRs together on gfx90a+ (GCNSubtarget::
 * getBaseMaxNumVGPRs doubles it), and, as the function's inline asm makes
 * clang mark it "amdgpu-agpr-alloc"="256", gives the AGPRs that whole budget
 * and the compiler no VGPR at all: "no registers from class available to
 * allocate".  Asking for (N + 256) / 2 gives a budget of N + 256 (N - 1 for an
 * odd N): 256 AGPRs and N VGPRs, which is what the kernel's authors meant.
 * At -O3 clang-22 then still parks two values in a0/a1 (inside the K tile);
 * at -O1 (the build adds it) it fits v0-v28 with no AGPR and no scratch.
 * The harness's --check (dQ, dK, dV against a CPU reference) is the test. */
#define amdgpu_num_vgpr(n) amdgpu_num_vgpr(((n) + 256) / 2)
