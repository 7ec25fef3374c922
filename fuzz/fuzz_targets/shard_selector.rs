#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| kubesim::fuzz::shard_selector(data));
