// wait_mutate_prog.cpp: wait-checker mutation test on any HIP test program.
//
//   wait_mutate_prog [--max N] [--arch gfx942|gfx950] TKSIM LLVM_OBJDUMP PROGRAM [ARGS...]
//
// --max N mutates at most N s_waitcnt instructions, spread evenly over the
// program's kernels (for large kernels: each mutant costs two program runs).
// --arch: which code object of a fat program is mutated and run (tksim
// --arch=...; default gfx942). gfx950 is a GFX9 target with the same
// s_waitcnt encoding and counters (CDNA4 ISA guide); the scan's barrier rule
// is gfx942's, carried over as tksim's gfx950 wait checker does (assumed).
//
// The program's code object sits uncompressed in its offload bundle
// (clang's __CLANG_OFFLOAD_BUNDLE__ layout: magic, entry count, then per entry
// offset, size, triple length, triple). Every s_waitcnt of every kernel is
// patched in a copy of the program, in turn, to s_nop 0 (0xBF800000, same 4
// bytes as SOPP s_waitcnt 0xBF8C<simm16>) and relaxed by one on each counter
// it waits for (gfx9 simm16: vmcnt [3:0]+[15:14], lgkmcnt [11:8]). Each mutant
// runs under tksim with the wait and race checkers on (reported?) and off
// (does the program's own result check still pass?).
//
// A report is required when the program's result changes, or when an
// independent path-sensitive scan of the mutant's disassembly finds an
// executed instruction that reads or overwrites a register a pending load will
// write, or an s_barrier reached with an LDS write pending (s_barrier does not
// wait for it on gfx942). The scan follows branches (s_branch, s_cbranch_*;
// both ways for conditional ones) with the outstanding loads per counter as
// state: VM = global/buffer/flat/scratch loads and stores, LGKM = ds_*, s_load*,
// flat; DS operations complete in order, scalar loads only at lgkmcnt(0). It
// flags only instructions the unmodified program executed, and follows a
// conditional branch's edge only if the unmodified run took it (per-PC counts
// from tksim --report=pc: when the fall-through instruction has no other
// predecessor, taken = count(branch) - count(fall-through)). The unmodified
// program must scan clean, pass, and draw no report.
// A summary table is printed; the exit status is 0 when no required report is
// missing.
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <fcntl.h>
#include <vector>

static std::vector<uint8_t> slurp(const std::string &p)
{
  std::vector<uint8_t> d;
  FILE *f = fopen(p.c_str(), "rb");
  if (!f) return d;
  uint8_t buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) d.insert(d.end(), buf, buf + n);
  fclose(f);
  return d;
}

static bool spit(const std::string &p, const std::vector<uint8_t> &d, bool exec)
{
  FILE *f = fopen(p.c_str(), "wb");
  if (!f) return false;
  bool ok = fwrite(d.data(), 1, d.size(), f) == d.size();
  fclose(f);
  if (exec) chmod(p.c_str(), 0755);
  return ok;
}

struct inst {
  uint64_t addr;
  uint32_t word0;
  std::string mnem, ops, kernel;
  uint64_t kernel_start;
};

static std::vector<inst> disassemble(const std::string &objdump, const std::string &elf, const std::string &arch)
{
  std::vector<inst> v;
  std::string cmd = objdump + " -d --mcpu=" + arch + " '" + elf + "' 2>/dev/null";
  FILE *p = popen(cmd.c_str(), "r");
  if (!p) return v;
  char line[2048];
  std::string kernel;
  uint64_t kstart = 0;
  bool ended = true;
  while (fgets(line, sizeof line, p)) {
    unsigned long long a;
    char name[1024];
    if (sscanf(line, "%llx <%1023[^>]>:", &a, name) == 2) { kernel = name; kstart = a; ended = false; continue; }
    if (line[0] != '\t' || ended) continue;
    const char *c = strstr(line, "//");
    if (!c) continue;
    inst x;
    unsigned w;
    if (sscanf(c + 2, " %llx: %x", &a, &w) != 2) continue;
    x.addr = a;
    x.word0 = w;
    std::string body(line + 1, c - line - 1);
    while (!body.empty() && isspace((unsigned char)body.back())) body.pop_back();
    size_t sp = body.find(' ');
    x.mnem = body.substr(0, sp);
    x.ops = sp == std::string::npos ? "" : body.substr(sp + 1);
    x.kernel = kernel;
    x.kernel_start = kstart;
    v.push_back(x);
  }
  pclose(p);
  return v;
}

/* ------------------------------------------------------------ the scan */
static bool starts(const std::string &s, const char *p) { return s.rfind(p, 0) == 0; }

static void regs_of(const std::string &op, std::vector<std::string> &out)
{
  if (op.size() < 2) return;
  char k = op[0];
  if (k != 'v' && k != 's' && k != 'a') return;
  int lo, hi;
  if (op[1] == '[' && sscanf(op.c_str() + 2, "%d:%d", &lo, &hi) == 2) {
    for (int r = lo; r <= hi; r++) out.push_back(std::string(1, k) + std::to_string(r));
  } else if (isdigit((unsigned char)op[1]) && sscanf(op.c_str() + 1, "%d", &lo) == 1) {
    out.push_back(std::string(1, k) + std::to_string(lo));
  }
}

static std::vector<std::string> split_ops(const std::string &ops)
{
  std::vector<std::string> r;
  std::string cur;
  for (char ch : ops) {
    if (ch == ',' || ch == ' ') { if (!cur.empty()) r.push_back(cur); cur.clear(); }
    else cur += ch;
  }
  if (!cur.empty()) r.push_back(cur);
  return r;
}

struct op_info {
  bool vm, lgkm, smem, ds_write, mem_dest, is_branch, is_cbranch, is_end, is_barrier;
  int64_t target; /* branch target address or -1 */
  std::vector<std::string> reads, writes;
};

static op_info classify(const inst &x)
{
  op_info o{};
  o.target = -1;
  const std::string &m = x.mnem;
  /* global_load_lds_* and buffer_load_* ... lds write LDS, not VGPRs, and
   * complete with vmcnt */
  bool lds_dma = starts(m, "global_load_lds") || (starts(m, "buffer_load") && (" " + x.ops + " ").find(" lds ") != std::string::npos);
  bool vm_load = !lds_dma && (starts(m, "global_load") || starts(m, "buffer_load") || starts(m, "scratch_load")) ||
                 ((starts(m, "global_atomic") || starts(m, "buffer_atomic")) && (x.ops.find("sc0") != std::string::npos || x.ops.find("glc") != std::string::npos));
  bool vm_store = !vm_load && (starts(m, "global_") || starts(m, "buffer_") || starts(m, "scratch_"));
  bool flat_load = starts(m, "flat_load"), flat_store = starts(m, "flat_") && !flat_load;
  bool ds = starts(m, "ds_");
  bool ds_load = ds && (starts(m, "ds_read") || m.find("_rtn") != std::string::npos || starts(m, "ds_bpermute") ||
                        starts(m, "ds_permute") || starts(m, "ds_swizzle") || starts(m, "ds_consume") || starts(m, "ds_append"));
  bool smem = starts(m, "s_load") || starts(m, "s_buffer_load") || starts(m, "s_memtime") || starts(m, "s_memrealtime");
  o.mem_dest = vm_load || flat_load || ds_load || smem;
  o.vm = vm_load || vm_store || flat_load || flat_store || lds_dma;
  o.lgkm = ds || smem || flat_load || flat_store;
  o.smem = smem || flat_load || flat_store; /* out of order among LGKM operations */
  o.ds_write = (ds && !ds_load) || lds_dma; /* an LDS write the barrier does not wait for */
  o.is_end = m == "s_endpgm" || starts(m, "s_setpc") || starts(m, "s_swappc") || m == "s_trap";
  o.is_barrier = m == "s_barrier";
  o.is_branch = m == "s_branch";
  o.is_cbranch = starts(m, "s_cbranch");
  if (o.is_branch || o.is_cbranch) {
    int16_t simm = (int16_t)(x.word0 & 0xffff);
    o.target = (int64_t)x.addr + 4 + 4 * (int64_t)simm;
  }
  std::vector<std::string> ops = split_ops(x.ops);
  bool no_dest = vm_store || flat_store || (ds && !ds_load) || lds_dma || o.is_branch || o.is_cbranch ||
                 starts(m, "s_cmp") || starts(m, "s_bitcmp") || starts(m, "s_waitcnt") || starts(m, "s_nop");
  for (size_t k = 0; k < ops.size(); k++) {
    if (k == 0 && !no_dest) regs_of(ops[k], o.writes);
    else regs_of(ops[k], o.reads);
  }
  if (starts(m, "v_fmac") || starts(m, "v_mac") || starts(m, "v_mfma") || starts(m, "v_dot"))
    for (auto &r : o.writes) o.reads.push_back(r); /* (mfma's C is listed; harmless) */
  return o;
}

struct pend { uint8_t vm, lgkm, smem, ds_write; uint32_t idx; };

static void do_wait(std::vector<pend> &out, uint32_t word)
{
  uint32_t s = word & 0xffff;
  int vm = (int)((s & 0xf) | ((s >> 14) & 3) << 4), lgkm = (int)((s >> 8) & 0xf);
  int nvm = 0, nl = 0;
  for (auto &p : out) { nvm += p.vm; nl += p.lgkm; }
  std::vector<pend> keep;
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
  out.swap(keep);
}

/* Explores every path of one kernel; returns the first hazard at an executed
 * instruction, or "". */
static std::string scan_kernel(const std::vector<inst> &code, const std::vector<uint32_t> &words,
                               const std::vector<op_info> &info, size_t first, size_t last,
                               const std::map<uint64_t, uint64_t> &executed)
{
  std::map<uint64_t, size_t> at;
  std::set<uint64_t> targets;
  for (size_t i = first; i < last; i++) {
    at[code[i].addr] = i;
    if (info[i].target >= 0) targets.insert((uint64_t)info[i].target);
  }
  auto count = [&](size_t i) {
    auto e = executed.find(code[i].addr - code[i].kernel_start);
    return e == executed.end() ? (uint64_t)0 : e->second;
  };
  std::set<std::string> seen;
  std::vector<std::pair<size_t, std::vector<pend>>> work;
  work.push_back({ first, {} });
  size_t steps = 0;
  while (!work.empty() && steps < 2000000) {
    auto [i, st] = work.back();
    work.pop_back();
    while (i < last && steps++ < 2000000) {
      std::string key = std::to_string(i) + ":";
      for (auto &p : st) key += std::to_string(p.idx) + ",";
      if (!seen.insert(key).second) break;
      uint32_t w = words[i];
      const op_info &o = info[i];
      if ((w & 0xffff0000u) == 0xbf8c0000u) { do_wait(st, w); i++; continue; }
      if ((w & 0xffff0000u) == 0xbf800000u) { i++; continue; }
      bool ran = count(i) > 0;
      if (o.is_barrier && ran)
        for (auto &p : st)
          if (p.ds_write) {
            char b[160];
            snprintf(b, sizeof b, "0x%llx s_barrier with the LDS write at 0x%llx in flight",
                     (unsigned long long)code[i].addr, (unsigned long long)code[p.idx].addr);
            return b;
          }
      if (ran)
        for (auto &p : st) {
          const op_info &lo = info[p.idx];
          for (auto &r : lo.writes) {
            bool rd = false, wr = false;
            for (auto &x : o.reads) rd |= x == r;
            if (!o.mem_dest) for (auto &x : o.writes) wr |= x == r;
            if (rd || wr) {
              char b[512];
              snprintf(b, sizeof b, "0x%llx '%s %s' %s %s pending from 0x%llx '%s'",
                       (unsigned long long)code[i].addr, code[i].mnem.c_str(), code[i].ops.c_str(),
                       rd ? "reads" : "overwrites", r.c_str(), (unsigned long long)code[p.idx].addr,
                       code[p.idx].mnem.c_str());
              return b;
            }
          }
        }
      if (o.vm || o.lgkm) {
        pend p{ o.vm, o.lgkm, o.smem, o.ds_write, (uint32_t)i };
        if (!o.mem_dest && !o.ds_write) { p.idx = (uint32_t)i; }
        st.push_back(p);
        if (st.size() > 80) st.erase(st.begin()); /* beyond every counter's range */
      }
      if (o.is_end) break;
      if (o.is_branch || o.is_cbranch) {
        auto t = at.find((uint64_t)o.target);
        if (o.is_branch) {
          if (t == at.end()) break;
          i = t->second;
          continue;
        }
        /* edges the unmodified run never took are not followed: when the
         * fall-through instruction has no other predecessor, the branch was
         * taken count(branch) - count(fall-through) times */
        bool take = true, fall = true;
        if (i + 1 < last && !targets.count(code[i + 1].addr)) {
          uint64_t cb = count(i), cf = count(i + 1);
          take = cb > cf;
          fall = cf > 0;
        }
        if (t != at.end() && take) work.push_back({ t->second, st });
        if (!fall) break;
      }
      i++;
    }
  }
  return "";
}

/* ------------------------------------------------------------ running */
struct result { int status; std::string err; };

static result run(const std::vector<std::string> &argv, const std::string &errfile)
{
  result r;
  pid_t pid = fork();
  if (pid == 0) {
    int fd = open(errfile.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) { dup2(fd, 2); close(fd); }
    int nul = open("/dev/null", O_WRONLY);
    if (nul >= 0) { dup2(nul, 1); close(nul); }
    std::vector<char *> a;
    for (auto &s : argv) a.push_back((char *)s.c_str());
    a.push_back(nullptr);
    execv(a[0], a.data());
    _exit(127);
  }
  int st = 0;
  waitpid(pid, &st, 0);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  auto e = slurp(errfile);
  r.err.assign(e.begin(), e.end());
  unlink(errfile.c_str());
  return r;
}

int main(int argc, char **argv)
{
  long max_waits = -1;
  if (argc > 2 && !strcmp(argv[1], "--max")) {
    char *e;
    max_waits = strtol(argv[2], &e, 10);
    if (*e || max_waits <= 0) { fprintf(stderr, "--max needs a positive count\n"); return 2; }
    argv += 2;
    argc -= 2;
  }
  std::string arch = "gfx942";
  if (argc > 2 && !strcmp(argv[1], "--arch")) {
    arch = argv[2];
    if (arch != "gfx942" && arch != "gfx950") { fprintf(stderr, "--arch must be gfx942 or gfx950\n"); return 2; }
    argv += 2;
    argc -= 2;
  }
  if (argc < 4) {
    fprintf(stderr, "usage: %s [--max N] [--arch gfx942|gfx950] TKSIM LLVM_OBJDUMP PROGRAM [ARGS...]\n", argv[0]);
    return 2;
  }
  std::string tksim = argv[1], objdump = argv[2], prog = argv[3];
  const std::string arch_opt = "--arch=" + arch;
  std::vector<std::string> pargs(argv + 4, argv + argc);
  std::vector<uint8_t> image = slurp(prog);
  if (image.empty()) { fprintf(stderr, "cannot read %s\n", prog.c_str()); return 2; }
  const char magic[] = "__CLANG_OFFLOAD_BUNDLE__";
  size_t bpos = std::string::npos;
  for (size_t i = 0; i + 24 <= image.size(); i++)
    if (!memcmp(&image[i], magic, 24)) { bpos = i; break; }
  if (bpos == std::string::npos) {
    fprintf(stderr, "%s: no uncompressed offload bundle (compressed CCOB bundles are not supported)\n", prog.c_str());
    return 2;
  }
  uint64_t n, elf_off = 0, elf_size = 0;
  memcpy(&n, &image[bpos + 24], 8);
  size_t p = bpos + 32;
  for (uint64_t k = 0; k < n && p + 24 <= image.size(); k++) {
    uint64_t off, size, tl;
    memcpy(&off, &image[p], 8); memcpy(&size, &image[p + 8], 8); memcpy(&tl, &image[p + 16], 8);
    std::string triple((const char *)&image[p + 24], tl);
    p += 24 + tl;
    if (triple.find(arch) != std::string::npos) { elf_off = bpos + off; elf_size = size; }
  }
  if (!elf_size || elf_off + elf_size > image.size()) {
    fprintf(stderr, "no %s code object in %s\n", arch.c_str(), prog.c_str());
    return 2;
  }
  std::vector<uint8_t> elf(image.begin() + (long)elf_off, image.begin() + (long)(elf_off + elf_size));
  std::string tmp = "/tmp/tksim_mutprog_" + std::to_string(getpid());
  spit(tmp + ".elf", elf, false);
  std::vector<inst> code = disassemble(objdump, tmp + ".elf", arch);
  unlink((tmp + ".elf").c_str());
  /* .text file offset: ELF64 section headers (bounds-checked) */
  if (elf.size() < 0x40 || memcmp(elf.data(), "\x7f" "ELF", 4)) { fprintf(stderr, "the %s bundle entry is not an ELF file\n", arch.c_str()); return 2; }
  uint64_t shoff; uint16_t shentsize, shnum, shstrndx;
  memcpy(&shoff, &elf[0x28], 8); memcpy(&shentsize, &elf[0x3a], 2);
  memcpy(&shnum, &elf[0x3c], 2); memcpy(&shstrndx, &elf[0x3e], 2);
  if (shentsize < 0x40 || shstrndx >= shnum || shoff > elf.size() || (uint64_t)shnum * shentsize > elf.size() - shoff) {
    fprintf(stderr, "malformed ELF section headers\n");
    return 2;
  }
  uint64_t strtab;
  memcpy(&strtab, &elf[shoff + (uint64_t)shstrndx * shentsize + 0x18], 8);
  int64_t delta = INT64_MIN;
  for (int i = 0; i < shnum; i++) {
    const uint8_t *sh = &elf[shoff + (uint64_t)i * shentsize];
    uint32_t name; uint64_t addr, off;
    memcpy(&name, sh, 4); memcpy(&addr, sh + 0x10, 8); memcpy(&off, sh + 0x18, 8);
    if (strtab >= elf.size() || name >= elf.size() - strtab) continue;
    if (!strncmp((const char *)&elf[strtab + name], ".text", elf.size() - strtab - name)) delta = (int64_t)off - (int64_t)addr;
  }
  if (code.empty() || delta == INT64_MIN) { fprintf(stderr, "cannot disassemble the code object\n"); return 2; }
  std::vector<uint32_t> words(code.size());
  std::vector<op_info> info(code.size());
  for (size_t i = 0; i < code.size(); i++) {
    if ((int64_t)code[i].addr + delta < 0 || (uint64_t)((int64_t)code[i].addr + delta) + 4 > elf.size()) {
      fprintf(stderr, "instruction at 0x%llx lies outside the code object\n", (unsigned long long)code[i].addr);
      return 2;
    }
    memcpy(&words[i], &elf[code[i].addr + delta], 4);
    if (words[i] != code[i].word0) { fprintf(stderr, "disassembly and image disagree at 0x%llx\n", (unsigned long long)code[i].addr); return 2; }
    info[i] = classify(code[i]);
  }

  /* baseline: passes, no report; which PCs of which kernel ran */
  std::string rep = tmp + ".report";
  setenv("TKSIM_REPORT_FILE", rep.c_str(), 1);
  std::vector<std::string> base_cmd = { tksim, arch_opt, "--report=pc", prog };
  base_cmd.insert(base_cmd.end(), pargs.begin(), pargs.end());
  result base = run(base_cmd, tmp + ".err");
  unsetenv("TKSIM_REPORT_FILE");
  std::map<std::string, std::map<uint64_t, uint64_t>> executed; /* kernel -> pc -> executions */
  {
    auto r = slurp(rep);
    unlink(rep.c_str());
    std::string text(r.begin(), r.end()), cur;
    size_t pos = 0;
    while (pos < text.size()) {
      size_t e = text.find('\n', pos);
      std::string line = text.substr(pos, e == std::string::npos ? std::string::npos : e - pos);
      pos = e == std::string::npos ? text.size() : e + 1;
      size_t kk = line.find(", kernel ");
      if (line.rfind("tksim report: launch", 0) == 0 && kk != std::string::npos) {
        cur = line.substr(kk + 9);
        size_t sp = cur.find(' ');
        if (sp != std::string::npos) cur = cur.substr(0, sp);
        continue;
      }
      unsigned long long pc, count;
      if (sscanf(line.c_str(), " %llx %llu", &pc, &count) == 2 && count > 0 && line.find('[') != std::string::npos)
        executed[cur][pc] = count;
    }
  }
  int fails = 0;
  bool base_ok = base.status == 0 && base.err.find("missing s_waitcnt") == std::string::npos &&
                 base.err.find("LDS race") == std::string::npos;
  printf("program %s: unmodified run %s (exit %d)\n", prog.c_str(), base_ok ? "passes with no report" : "FAILS", base.status);
  if (!base_ok) { fprintf(stderr, "%s", base.err.c_str()); fails++; }

  /* kernels: index ranges */
  std::vector<std::pair<size_t, size_t>> kr;
  for (size_t i = 0; i < code.size(); i++)
    if (i == 0 || code[i].kernel != code[i - 1].kernel) kr.push_back({ i, i + 1 });
    else kr.back().second = i + 1;
  for (auto &k : kr) {
    std::string s = scan_kernel(code, words, info, k.first, k.second, executed[code[k.first].kernel]);
    if (!s.empty()) { printf("FAIL: the unmodified kernel %s scans dirty: %s\n", code[k.first].kernel.c_str(), s.c_str()); fails++; }
  }

  printf("%-4s %-28.28s %-6s %-32s %-11s %-8s %-8s %-8s %s\n", "#", "kernel", "pc", "original", "mutation", "scan",
         "result", "reported", "verdict");
  int idx = 0, required = 0, reported = 0, missed = 0;
  long nwaits = 0, wseen = 0;
  for (size_t i = 0; i < code.size(); i++) nwaits += (words[i] & 0xffff0000u) == 0xbf8c0000u;
  for (auto &k : kr) {
    const std::string &kname = code[k.first].kernel;
    for (size_t i = k.first; i < k.second; i++) {
      if ((words[i] & 0xffff0000u) != 0xbf8c0000u) continue;
      long wi = wseen++;
      /* with --max, keep waits whose index lands on an even stride */
      if (max_waits > 0 && nwaits > max_waits && (wi * max_waits) / nwaits == ((wi - 1) * max_waits) / nwaits && wi) continue;
      uint32_t s = words[i] & 0xffff;
      int vm = (int)((s & 0xf) | ((s >> 14) & 3) << 4), lgkm = (int)((s >> 8) & 0xf);
      std::vector<std::pair<const char *, uint32_t>> muts = { { "-> s_nop 0", 0xbf800000u } };
      if (vm < 63) {
        int nv = vm + 1;
        muts.push_back({ "vmcnt +1", 0xbf8c0000u | (s & ~0xc00fu) | (uint32_t)(nv & 15) | (uint32_t)((nv >> 4) & 3) << 14 });
      }
      if (lgkm < 15) muts.push_back({ "lgkmcnt +1", (words[i] & ~0x0f00u) | (uint32_t)(lgkm + 1) << 8 });
      for (auto &m : muts) {
        std::vector<uint32_t> mw = words;
        mw[i] = m.second;
        std::string why = scan_kernel(code, mw, info, k.first, k.second, executed[kname]);
        std::vector<uint8_t> img = image;
        memcpy(&img[elf_off + code[i].addr + delta], &m.second, 4);
        std::string mp = tmp + "_mut";
        spit(mp, img, true);
        std::vector<std::string> on = { tksim, arch_opt, mp },
                                 off = { tksim, arch_opt, "--no-check-waits", "--no-check-races", mp };
        on.insert(on.end(), pargs.begin(), pargs.end());
        off.insert(off.end(), pargs.begin(), pargs.end());
        result ron = run(on, tmp + ".err"), roff = run(off, tmp + ".err");
        unlink(mp.c_str());
        bool differ = roff.status != 0;
        bool rep2 = ron.err.find("missing s_waitcnt") != std::string::npos || ron.err.find("still in flight") != std::string::npos;
        bool need = !why.empty() || differ;
        required += need;
        reported += rep2;
        if (need && !rep2) { missed++; fails++; }
        std::string orig = code[i].mnem + " " + code[i].ops;
        printf("%-4d %-28.28s %-6llx %-32.32s %-11s %-8s %-8s %-8s %s\n", idx++, kname.c_str(),
               (unsigned long long)(code[i].addr - code[i].kernel_start), orig.c_str(), m.first,
               why.empty() ? "clean" : "hazard", differ ? "FAILS" : "passes", rep2 ? "yes" : "no",
               need ? (rep2 ? "ok (caught)" : "MISSED") : (rep2 ? "ok (reported, not required)" : "ok (harmless)"));
        if (!why.empty()) printf("     scan: %s\n", why.c_str());
      }
    }
  }
  printf("mutants %d, report required %d, reported %d, missed %d\n", idx, required, reported, missed);
  if (idx == 0) { printf("FAIL: no s_waitcnt found\n"); fails++; }
  printf("%s\n", fails ? "wait_mutate_prog: FAILED" : "wait_mutate_prog: PASSED");
  return fails ? 1 : 0;
}
