{% verbatim %}
  // -- the widget's words in each language ----------------------------------------------
  // Included into widget.js inside its closure, before the state that picks the language.

  var TEXT = {
    id: {
      subtitle: "Jawaban dari dokumen publik Pemerintah Aceh",
      open: "Buka obrolan", close: "Tutup obrolan", newChat: "Percakapan baru",
      placeholder: "Tulis pertanyaan Anda…", send: "Kirim",
      greeting: "Halo! Tanyakan tentang qanun, peraturan gubernur, atau layanan informasi publik Aceh. Setiap jawaban disertai sumbernya.",
      sources: "Sumber", page: "hlm.", suggestions: "Pertanyaan lanjutan",
      langToggle: "EN", langLabel: "Switch to English",
      disclaimer: "Jawaban otomatis dari dokumen publik; periksa sumber resminya.",
      loadingSource: "Memuat kutipan…", sourceUnavailable: "Kutipan tidak tersedia.",
      helpful: "Jawaban membantu", notHelpful: "Jawaban tidak membantu", feedbackThanks: "Terima kasih atas masukan Anda.",
      feedbackComment: "Apa yang kurang tepat? (opsional)", feedbackSend: "Kirim masukan", feedbackFailed: "Masukan tidak terkirim.",
      copy: "Salin", copyLabel: "Salin jawaban beserta sumbernya", copied: "Disalin", copiedNote: "Jawaban disalin.", copyFailed: "Gagal menyalin",
      counter: "{n}/{max}",
      phases: { start: "Menghubungkan…", searching: "Mencari dokumen…", reading: "Membaca pasal…", finalizing: "Hampir selesai…" },
      errors: {
        RATE_LIMITED: "Terlalu banyak pertanyaan dalam waktu singkat. Coba lagi dalam {s} detik.",
        BAD_REQUEST: "Pertanyaan tidak dapat diproses. Periksa kembali pertanyaan Anda.",
        TOO_LONG: "Pertanyaan terlalu panjang (maksimal {n} karakter).",
        NOT_FOUND: "Percakapan sebelumnya tidak ditemukan. Kirim ulang pertanyaan untuk memulai percakapan baru.",
        FORBIDDEN: "Obrolan ini tidak diizinkan di situs ini.",
        NETWORK: "Koneksi terputus. Periksa jaringan Anda lalu coba lagi.",
        CANCELLED: "Jawaban dibatalkan.",
        DEFAULT: "Maaf, terjadi kesalahan. Silakan coba lagi."
      }
    },
    en: {
      subtitle: "Answers from the Aceh Government's public documents",
      open: "Open chat", close: "Close chat", newChat: "New conversation",
      placeholder: "Type your question…", send: "Send",
      greeting: "Hello! Ask about qanun, governor regulations or Aceh's public information services. Every answer cites its sources.",
      sources: "Sources", page: "p.", suggestions: "Follow-up questions",
      langToggle: "ID", langLabel: "Ganti ke Bahasa Indonesia",
      disclaimer: "Automated answers from public documents; check the official source.",
      loadingSource: "Loading excerpt…", sourceUnavailable: "Excerpt unavailable.",
      helpful: "Helpful answer", notHelpful: "Unhelpful answer", feedbackThanks: "Thank you for your feedback.",
      feedbackComment: "What was wrong? (optional)", feedbackSend: "Send feedback", feedbackFailed: "Feedback was not sent.",
      copy: "Copy", copyLabel: "Copy the answer with its sources", copied: "Copied", copiedNote: "Answer copied.", copyFailed: "Copy failed",
      counter: "{n}/{max}",
      phases: { start: "Connecting…", searching: "Searching documents…", reading: "Reading the article…", finalizing: "Almost done…" },
      errors: {
        RATE_LIMITED: "Too many questions in a short time. Try again in {s} seconds.",
        BAD_REQUEST: "The question could not be processed. Please check it and try again.",
        TOO_LONG: "The question is too long (at most {n} characters).",
        NOT_FOUND: "The previous conversation was not found. Send your question again to start a new one.",
        FORBIDDEN: "This chat is not allowed on this site.",
        NETWORK: "The connection was lost. Check your network and try again.",
        CANCELLED: "The answer was cancelled.",
        DEFAULT: "Sorry, something went wrong. Please try again."
      }
    }
  };
{% endverbatim %}
