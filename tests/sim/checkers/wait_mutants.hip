// wait_mutants.hip: mutation test of tksim's wait checker.
//
//   tksim wait_mutants CODE_OBJECT.elf LLVM_OBJDUMP KERNEL
//
// Takes a compiled gfx942 code object, and for every s_waitcnt of KERNEL makes
// mutants: the wait replaced by s_nop 0 (same 4 bytes: SOPP s_waitcnt is
// 0xBF8C<simm16>, s_nop 0 is 0xBF800000; CDNA3 ISA guide "SOPP"), and the wait
// relaxed by one on each counter it waits for (simm16 on gfx9: vmcnt in
// [3:0]+[15:14], expcnt [6:4], lgkmcnt [11:8]). Each mutant runs in a child
// process (this program re-executed under the same tksim environment) twice:
// with the wait and race checkers on (does tksim report? the race checker
// reports LDS writes still in flight at s_barrier) and off (do outputs change?).
//
// Whether a report is required is decided independently of tksim, by a
// linear scan of the mutant's disassembly that tracks outstanding loads per
// counter (VM: global/buffer/flat/scratch loads and stores; LGKM: ds_*,
// s_load*, flat; scalar loads complete out of order, so only lgkmcnt(0)
// retires them) and flags any instruction that reads, or overwrites, a
// register a pending load will write. A report is required when the scan
// flags the mutant or its outputs differ; a mutant that changes nothing
// observable may go unreported. The unmodified kernel must scan clean,
// produce the host's reference output and draw no report.
//
// The scan is linear (branches are not followed), which is exact for the
// straight-line kernels used here. Child protocol: `wait_mutants --child ELF
// KERNEL OUT` runs the kernel (signature (const float*, const float*,
// float*, int), 256 threads) and writes the output to OUT.
#include "../isa/vtest.h"
#include <sys/wait.h>
#include <unistd.h>
#include <fcntl.h>
#include <set>
#include <string>

#define NT 256

static std::vector<uint8_t> read_file(const char *p)
{
  std::vector<uint8_t> d;
  FILE *f = fopen(p, "rb");
  if (!f) return d;
  uint8_t buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) d.insert(d.end(), buf, buf + n);
  fclose(f);
  return d;
}

static void inputs(std::vector<float> &a, std::vector<float> &b)
{
  uint64_t s = 2024;
  a.resize(NT); b.resize(NT);
  for (int i = 0; i < NT; i++) {
    a[i] = (float)((int)(vt_rand(&s) % 17) - 8); /* small integers: every result is exact */
    b[i] = (float)((int)(vt_rand(&s) % 17) - 8);
  }
}

static int child(const char *elf, const char *kernel, const char *outp)
{
  hipModule_t m;
  hipFunction_t f;
  if (hipModuleLoad(&m, elf) != hipSuccess) return 4;
  if (hipModuleGetFunction(&f, m, kernel) != hipSuccess) return 4;
  std::vector<float> a, b;
  inputs(a, b);
  vt_buf<float> da(a), db(b), dout(NT);
  VT_HIP(hipMemset(dout.d, 0, NT * sizeof(float)));
  int n = NT;
  const float *pa = da.d, *pb = db.d;
  float *po = dout.d;
  void *args[] = { &pa, &pb, &po, &n };
  if (hipModuleLaunchKernel(f, 1, 1, 1, NT, 1, 1, 0, 0, args, nullptr) != hipSuccess) return 3;
  if (hipDeviceSynchronize() != hipSuccess) return 3;
  std::vector<float> out = dout.get();
  FILE *o = fopen(outp, "wb");
  if (!o) return 5;
  fwrite(out.data(), sizeof(float), NT, o);
  fclose(o);
  return 0;
}

/* ------------------------------------------------------------ disassembly */
struct inst {
  uint64_t addr;
  uint32_t word0;
  std::string mnem, ops;
};

/* Parses `llvm-objdump -d` lines of KERNEL: "\tmnem ops // ADDR: HEX ..." */
static std::vector<inst> disassemble(const char *objdump, const char *elf, const char *kernel)
{
  std::vector<inst> v;
  std::string cmd = std::string(objdump) + " -d --mcpu=gfx942 '" + elf + "' 2>/dev/null";
  FILE *p = popen(cmd.c_str(), "r");
  if (!p) return v;
  char line[1024];
  std::string hdr = std::string("<") + kernel + ">:";
  int in = 0;
  while (fgets(line, sizeof line, p)) {
    if (strstr(line, hdr.c_str())) { in = 1; continue; }
    if (!in) continue;
    if (line[0] != '\t') { if (!v.empty()) break; continue; }
    const char *c = strstr(line, "//");
    if (!c) continue;
    inst x;
    unsigned long long a;
    unsigned w;
    if (sscanf(c + 2, " %llx: %x", &a, &w) != 2) continue;
    x.addr = a;
    x.word0 = w;
    std::string body(line + 1, c - line - 1);
    while (!body.empty() && isspace((unsigned char)body.back())) body.pop_back();
    size_t sp = body.find(' ');
    x.mnem = body.substr(0, sp);
    x.ops = sp == std::string::npos ? "" : body.substr(sp + 1);
    v.push_back(x);
    if (x.mnem == "s_endpgm") break;
  }
  pclose(p);
  return v;
}

/* register names of an operand: v[2:3] -> v2 v3, s4 -> s4; others none */
static void regs_of(const std::string &op, std::set<std::string> &out)
{
  if (op.size() < 2) return;
  char k = op[0];
  if (k != 'v' && k != 's' && k != 'a') return;
  int lo, hi;
  if (op[1] == '[' && sscanf(op.c_str() + 2, "%d:%d", &lo, &hi) == 2) {
    for (int r = lo; r <= hi; r++) out.insert(std::string(1, k) + std::to_string(r));
  } else if (isdigit((unsigned char)op[1]) && sscanf(op.c_str() + 1, "%d", &lo) == 1) {
    out.insert(std::string(1, k) + std::to_string(lo));
  }
}

static std::vector<std::string> split_ops(const std::string &ops)
{
  std::vector<std::string> r;
  std::string cur;
  for (char ch : ops) {
    if (ch == ',') { r.push_back(cur); cur.clear(); }
    else if (ch == ' ' && cur.empty()) continue;
    else if (ch == ' ') { r.push_back(cur); cur.clear(); } /* modifiers follow */
    else cur += ch;
  }
  if (!cur.empty()) r.push_back(cur);
  return r;
}

static bool starts(const std::string &s, const char *p) { return s.rfind(p, 0) == 0; }

struct pending { int vm, lgkm, smem, ds_write; std::set<std::string> regs; };

/* simm16 -> counts (gfx9 encoding) */
static void decode_wait(uint32_t word, int *vm, int *lgkm)
{
  uint32_t s = word & 0xffff;
  *vm = (int)((s & 0xf) | ((s >> 14) & 3) << 4);
  *lgkm = (int)((s >> 8) & 0xf);
}

/* The scan: first hazard's description, or "" when none. */
static std::string scan(const std::vector<inst> &code, const std::vector<uint32_t> &words)
{
  std::vector<pending> out;
  for (size_t i = 0; i < code.size(); i++) {
    const inst &x = code[i];
    uint32_t w = words[i];
    if ((w & 0xffff0000u) == 0xbf8c0000u) { /* s_waitcnt (possibly mutated) */
      int vm, lgkm;
      decode_wait(w, &vm, &lgkm);
      /* wait until at most vm (lgkm) remain: the oldest entries of each
       * counter retire first; scalar loads only at lgkmcnt(0) */
      int nvm = 0, nl = 0;
      for (auto &p : out) { nvm += p.vm; nl += p.lgkm; }
      std::vector<pending> keep;
      int jv = 0, jl = 0;
      for (auto &p : out) {
        bool vd = true, ld = true;
        if (p.vm) { vd = jv < nvm - vm; jv++; }
        if (p.lgkm) { ld = p.smem ? lgkm == 0 : jl < nl - lgkm; jl++; }
        /* a flat access counts on both counters and is complete when either
         * proves it (both drop only when its data has returned) */
        bool done = (p.vm && p.lgkm) ? (vd || ld) : (vd && ld);
        if (!done) keep.push_back(p);
      }
      out = keep;
      continue;
    }
    if ((w & 0xffff0000u) == 0xbf800000u) continue; /* s_nop */
    if (x.mnem == "s_barrier") { /* s_barrier does not wait for the wave's LDS writes */
      for (auto &p : out)
        if (p.ds_write) {
          char pc[32];
          snprintf(pc, sizeof pc, "0x%llx", (unsigned long long)x.addr);
          return std::string(pc) + " s_barrier with an LDS write in flight";
        }
      continue;
    }
    std::vector<std::string> ops = split_ops(x.ops);
    const std::string &m = x.mnem;
    bool vm_load = starts(m, "global_load") || starts(m, "buffer_load") || starts(m, "scratch_load");
    bool vm_store = starts(m, "global_store") || starts(m, "buffer_store") || starts(m, "scratch_store");
    bool flat_load = starts(m, "flat_load"), flat_store = starts(m, "flat_store");
    bool ds = starts(m, "ds_");
    bool ds_load = ds && (starts(m, "ds_read") || starts(m, "ds_load") || m.find("_rtn") != std::string::npos ||
                          starts(m, "ds_bpermute") || starts(m, "ds_permute") || starts(m, "ds_swizzle"));
    bool smem = starts(m, "s_load") || starts(m, "s_buffer_load");
    bool mem_dest = vm_load || flat_load || ds_load || smem;
    std::set<std::string> reads, writes;
    for (size_t k = 0; k < ops.size(); k++) {
      /* the first operand is a destination except for stores, LDS writes,
       * branches and scalar compares (v_cmp*_e32 writes vcc, not listed) */
      bool is_dest = k == 0 && !(vm_store || flat_store || (ds && !ds_load) || starts(m, "s_cbranch") ||
                                 starts(m, "s_branch") || starts(m, "s_cmp") || starts(m, "s_bitcmp"));
      if (is_dest) regs_of(ops[k], writes);
      else regs_of(ops[k], reads);
    }
    if (starts(m, "v_fmac") || starts(m, "v_mac")) for (auto &r : writes) reads.insert(r);
    for (auto &p : out) {
      for (auto &r : reads)
        if (p.regs.count(r)) {
          char pc[32];
          snprintf(pc, sizeof pc, "0x%llx", (unsigned long long)x.addr);
          return std::string(pc) + " '" + m + " " + x.ops + "' reads pending " + r;
        }
      if (!mem_dest)
        for (auto &r : writes)
          if (p.regs.count(r)) return "'" + m + " " + x.ops + "' overwrites pending " + r;
    }
    if (mem_dest || vm_store || flat_store || ds) {
      pending p;
      p.vm = vm_load || vm_store || flat_load || flat_store;
      p.lgkm = ds || smem || flat_load || flat_store;
      p.smem = smem || flat_load || flat_store; /* out of order among LGKM operations */
      p.ds_write = ds && !ds_load;
      if (mem_dest) p.regs = writes;
      out.push_back(p);
    }
  }
  return "";
}

struct run_result { int status; std::string err; std::vector<float> out; };

static run_result run_child(const char *self, const std::string &elf, const char *kernel, int check_waits)
{
  run_result r;
  std::string outp = elf + (check_waits ? ".on.out" : ".off.out"), errp = elf + ".err";
  unlink(outp.c_str());
  pid_t pid = fork();
  if (pid == 0) {
    int fd = open(errp.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) { dup2(fd, 2); close(fd); }
    setenv("TKSIM_CHECK_WAITS", check_waits ? "1" : "0", 1);
    setenv("TKSIM_CHECK_RACES", check_waits ? "1" : "0", 1); /* reports LDS writes in flight at s_barrier */
    execl(self, self, "--child", elf.c_str(), kernel, outp.c_str(), (char *)nullptr);
    _exit(127);
  }
  int st = 0;
  waitpid(pid, &st, 0);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  auto e = read_file(errp.c_str());
  r.err.assign(e.begin(), e.end());
  auto o = read_file(outp.c_str());
  if (o.size() == NT * sizeof(float)) { r.out.resize(NT); memcpy(r.out.data(), o.data(), o.size()); }
  unlink(outp.c_str());
  unlink(errp.c_str());
  return r;
}

int main(int argc, char **argv)
{
  if (argc == 5 && !strcmp(argv[1], "--child")) return child(argv[2], argv[3], argv[4]);
  if (argc != 4) {
    fprintf(stderr, "usage: %s CODE_OBJECT.elf LLVM_OBJDUMP KERNEL\n", argv[0]);
    return 2;
  }
  const char *elf = argv[1], *objdump = argv[2], *kernel = argv[3];
  char self[4096];
  ssize_t sl = readlink("/proc/self/exe", self, sizeof self - 1);
  if (sl <= 0) { fprintf(stderr, "cannot find /proc/self/exe\n"); return 2; }
  self[sl] = 0;
  std::vector<uint8_t> image = read_file(elf);
  std::vector<inst> code = disassemble(objdump, elf, kernel);
  if (image.empty() || code.empty()) {
    fprintf(stderr, "cannot read %s or find kernel %s in its disassembly\n", elf, kernel);
    return 2;
  }
  /* file offset of .text: ELF64 section headers (bounds-checked) */
  if (image.size() < 0x40 || memcmp(image.data(), "\x7f" "ELF", 4)) { fprintf(stderr, "%s is not an ELF file\n", elf); return 2; }
  uint64_t shoff; uint16_t shentsize, shnum, shstrndx;
  memcpy(&shoff, &image[0x28], 8); memcpy(&shentsize, &image[0x3a], 2);
  memcpy(&shnum, &image[0x3c], 2); memcpy(&shstrndx, &image[0x3e], 2);
  if (shentsize < 0x40 || shstrndx >= shnum || shoff > image.size() || (uint64_t)shnum * shentsize > image.size() - shoff) {
    fprintf(stderr, "%s: malformed ELF section headers\n", elf);
    return 2;
  }
  uint64_t strtab_off;
  memcpy(&strtab_off, &image[shoff + (uint64_t)shstrndx * shentsize + 0x18], 8);
  int64_t text_delta = -1;
  for (int i = 0; i < shnum; i++) {
    const uint8_t *sh = &image[shoff + (uint64_t)i * shentsize];
    uint32_t name; uint64_t addr, off;
    memcpy(&name, sh, 4); memcpy(&addr, sh + 0x10, 8); memcpy(&off, sh + 0x18, 8);
    if (strtab_off >= image.size() || name >= image.size() - strtab_off) continue;
    if (!strncmp((const char *)&image[strtab_off + name], ".text", image.size() - strtab_off - name)) text_delta = (int64_t)off - (int64_t)addr;
  }
  if (text_delta == -1) { fprintf(stderr, "no .text in %s\n", elf); return 2; }
  std::vector<uint32_t> words(code.size());
  for (size_t i = 0; i < code.size(); i++) {
    uint32_t w;
    if ((int64_t)code[i].addr + text_delta < 0 || (uint64_t)((int64_t)code[i].addr + text_delta) + 4 > image.size()) {
      fprintf(stderr, "instruction at 0x%llx lies outside %s\n", (unsigned long long)code[i].addr, elf);
      return 2;
    }
    memcpy(&w, &image[code[i].addr + text_delta], 4);
    words[i] = w;
    if (w != code[i].word0) { fprintf(stderr, "disassembly and image disagree at 0x%llx\n", (unsigned long long)code[i].addr); return 2; }
  }

  /* the unmodified kernel */
  std::vector<float> a, b;
  inputs(a, b);
  std::vector<float> want(NT);
  for (int t = 0; t < NT; t++)
    want[t] = (2 * a[(t + 3) % NT] + 2 * a[(t * 5) % NT]) * b[t ^ 1] + a[(t + 7) % NT];
  std::string base_scan = scan(code, words);
  vt_check_u32("static scan of the unmodified kernel is clean", 0, base_scan.empty(), 1);
  if (!base_scan.empty()) fprintf(stderr, "  scan: %s\n", base_scan.c_str());
  std::string tmp = std::string("/tmp/tksim_mut_") + std::to_string(getpid());
  std::string path = tmp + "_orig.elf";
  FILE *f = fopen(path.c_str(), "wb");
  fwrite(image.data(), 1, image.size(), f);
  fclose(f);
  run_result base = run_child(self, path, kernel, 1);
  unlink(path.c_str());
  vt_check_u32("unmodified kernel runs", 0, (uint32_t)base.status, 0);
  vt_check_u32("unmodified kernel draws no wait/race report", 0,
               base.err.find("missing s_waitcnt") == std::string::npos && base.err.find("tksim: LDS race") == std::string::npos, 1);
  if (base.out.size() == NT)
    for (int t = 0; t < NT; t++) vt_check_f32("unmodified output vs host", t, base.out[t], want[t]);
  if (base.status) fprintf(stderr, "%s", base.err.c_str());

  printf("%-4s %-8s %-34s %-18s %-9s %-8s %-9s %s\n", "#", "pc", "original", "mutation", "scan", "outputs", "reported", "verdict");
  int idx = 0, missed = 0, total = 0, required = 0, reported = 0;
  for (size_t i = 0; i < code.size(); i++) {
    if ((words[i] & 0xffff0000u) != 0xbf8c0000u) continue;
    int vm, lgkm;
    decode_wait(words[i], &vm, &lgkm);
    struct { const char *what; uint32_t word; } muts[3];
    int nm = 0;
    muts[nm++] = { "-> s_nop 0", 0xbf800000u };
    if (vm < 63) {
      int nv = vm + 1;
      uint32_t s = (words[i] & 0xffff) & ~0xc00fu;
      muts[nm++] = { "vmcnt +1", 0xbf8c0000u | s | (uint32_t)(nv & 15) | (uint32_t)((nv >> 4) & 3) << 14 };
    }
    if (lgkm < 15) muts[nm++] = { "lgkmcnt +1", (words[i] & ~0x0f00u) | (uint32_t)(lgkm + 1) << 8 };
    for (int k = 0; k < nm; k++) {
      std::vector<uint32_t> mw = words;
      mw[i] = muts[k].word;
      std::vector<uint8_t> img = image;
      memcpy(&img[code[i].addr + text_delta], &muts[k].word, 4);
      std::string mp = tmp + "_" + std::to_string(idx) + ".elf";
      FILE *mf = fopen(mp.c_str(), "wb");
      fwrite(img.data(), 1, img.size(), mf);
      fclose(mf);
      std::string why = scan(code, mw);
      run_result on = run_child(self, mp, kernel, 1);
      run_result off = run_child(self, mp, kernel, 0);
      unlink(mp.c_str());
      bool differ = off.status != 0 || off.out.size() != NT || memcmp(off.out.data(), base.out.data(), NT * sizeof(float));
      bool rep = on.err.find("missing s_waitcnt") != std::string::npos ||
                 on.err.find("still in flight") != std::string::npos;
      bool need = !why.empty() || differ;
      const char *verdict = need ? (rep ? "ok (caught)" : "MISSED") : (rep ? "ok (reported, not required)" : "ok (harmless)");
      total++;
      required += need;
      reported += rep;
      if (need && !rep) missed++;
      std::string orig = code[i].mnem + " " + code[i].ops;
      printf("%-4d %-8llx %-34.34s %-18s %-9s %-8s %-9s %s\n", idx, (unsigned long long)code[i].addr,
             orig.c_str(), muts[k].what, why.empty() ? "clean" : "hazard", differ ? "differ" : "same",
             rep ? "yes" : "no", verdict);
      if (!why.empty()) printf("     scan: %s\n", why.c_str());
      vt_check_u32("required report present", idx, !need || rep, 1);
      idx++;
    }
  }
  printf("mutants %d, report required %d, reported %d, missed %d\n", total, required, reported, missed);
  vt_check_u32("at least one mutant requires a report", 0, required > 0, 1);
  return vt_finish("wait_mutants");
}
