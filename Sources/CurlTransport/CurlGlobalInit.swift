import CCurl

/// `curl_global_init` result. libcurl wants exactly one global initialisation before any thread
/// uses it; a Swift global `let` is initialised lazily and exactly once (`swift_once`), and every
/// engine reads it in its initialiser, before it creates a multi handle or starts its thread.
let curlGlobalInitCode: Int = Int(CCurl_global_init_all().rawValue)
