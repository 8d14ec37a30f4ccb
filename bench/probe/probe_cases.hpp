// The entry point of each mergepath-probe case (main.cu's table; the cases' files by family).
#pragma once

namespace probe_merge { int probe_main(int argc, char** argv); }
namespace probe_merge4 { int probe_main(int argc, char** argv); }
namespace probe_merge_time { int probe_main(int argc, char** argv); }
namespace probe_mergesort { int probe_main(int argc, char** argv); }
namespace probe_batch { int probe_main(int argc, char** argv); }
namespace probe_search { int probe_main(int argc, char** argv); }
namespace probe_search_cache { int probe_main(int argc, char** argv); }
namespace probe_search_time { int probe_main(int argc, char** argv); }
namespace probe_search_wide { int probe_main(int argc, char** argv); }
namespace probe_needles { int probe_main(int argc, char** argv); }
namespace probe_gallop { int probe_main(int argc, char** argv); }
namespace probe_load_balance { int probe_main(int argc, char** argv); }
namespace probe_segsort { int probe_main(int argc, char** argv); }
namespace probe_set_ops { int probe_main(int argc, char** argv); }
