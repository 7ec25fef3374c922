#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| kubesim::fuzz::strategic_merge_patch(data));
