"""Shipped glossary: nicknames of Aceh and national laws, abbreviations, colloquial forms, English legal words.

A nickname only acts when a visible indexed document carries its identity;
the rows here may name regulations a deployment has not ingested.
"""
from django.db import migrations

UU, PP, QANUN, PERGUB = "Undang-Undang", "Peraturan Pemerintah", "Qanun Aceh", "Peraturan Gubernur Aceh"

NICKNAMES = [
    # phrase, type, number, year, title words for the lexical query
    ("uupa", UU, "11", 2006, "pemerintahan aceh"),
    ("uu pa", UU, "11", 2006, "pemerintahan aceh"),
    ("uu pemerintahan aceh", UU, "11", 2006, "pemerintahan aceh"),
    ("undang-undang pemerintahan aceh", UU, "11", 2006, "pemerintahan aceh"),
    ("uu pemda", UU, "23", 2014, "pemerintahan daerah"),
    ("uu pemda 2014", UU, "23", 2014, "pemerintahan daerah"),
    ("uu pemerintahan daerah 2014", UU, "23", 2014, "pemerintahan daerah"),
    ("uu pemda 2004", UU, "32", 2004, "pemerintahan daerah"),
    ("uu pemda 1999", UU, "22", 1999, "pemerintahan daerah"),
    ("uu desa", UU, "6", 2014, "desa"),
    ("uu asn", UU, "5", 2014, "aparatur sipil negara"),
    ("uu aparatur sipil negara", UU, "5", 2014, "aparatur sipil negara"),
    ("uu otsus", UU, "18", 2001, "otonomi khusus"),
    ("uu otsus aceh", UU, "18", 2001, "otonomi khusus"),
    ("uu keistimewaan aceh", UU, "44", 1999, "keistimewaan aceh"),
    ("uu ite", UU, "11", 2008, "informasi transaksi elektronik"),
    ("uu kip", UU, "14", 2008, "keterbukaan informasi publik"),
    ("uu keterbukaan informasi publik", UU, "14", 2008, "keterbukaan informasi publik"),
    ("uu pdp", UU, "27", 2022, "pelindungan data pribadi"),
    ("uu ketenagakerjaan", UU, "13", 2003, "ketenagakerjaan"),
    ("uu pemilu", UU, "7", 2017, "pemilihan umum"),
    ("uu sisdiknas", UU, "20", 2003, "sistem pendidikan nasional"),
    ("uu hkpd", UU, "1", 2022, "hubungan keuangan pusat daerah"),
    ("uu zakat", UU, "23", 2011, "pengelolaan zakat"),
    ("uu penanggulangan bencana", UU, "24", 2007, "penanggulangan bencana"),
    ("uu pelayanan publik", UU, "25", 2009, "pelayanan publik"),
    ("uu penataan ruang", UU, "26", 2007, "penataan ruang"),
    ("uu administrasi pemerintahan", UU, "30", 2014, "administrasi pemerintahan"),
    ("uu keuangan negara", UU, "17", 2003, "keuangan negara"),
    ("uu perbendaharaan negara", UU, "1", 2004, "perbendaharaan negara"),
    ("uu p3", UU, "12", 2011, "pembentukan peraturan perundang-undangan"),
    ("uu ppp", UU, "12", 2011, "pembentukan peraturan perundang-undangan"),
    ("uu pplh", UU, "32", 2009, "perlindungan pengelolaan lingkungan hidup"),
    ("uu lingkungan hidup", UU, "32", 2009, "perlindungan pengelolaan lingkungan hidup"),
    ("uu perimbangan keuangan", UU, "33", 2004, "perimbangan keuangan"),
    ("uu ketenaganukliran", UU, "10", 1997, "ketenaganukliran"),
    ("pp disiplin pns", PP, "94", 2021, "disiplin pegawai negeri sipil"),
    ("pp manajemen pns", PP, "11", 2017, "manajemen pegawai negeri sipil"),
    ("pp parlok", PP, "20", 2007, "partai politik lokal"),
    ("pp partai politik lokal", PP, "20", 2007, "partai politik lokal"),
    ("pp dana perimbangan", PP, "55", 2005, "dana perimbangan"),
    ("pp pengelolaan keuangan daerah", PP, "12", 2019, "pengelolaan keuangan daerah"),
    ("pp perangkat daerah", PP, "18", 2016, "perangkat daerah"),
    ("pp migas aceh", PP, "23", 2015, "pengelolaan bersama minyak gas bumi aceh"),
    ("pp kerja sama daerah", PP, "28", 2018, "kerja sama daerah"),
    ("pp kewenangan nasional di aceh", PP, "3", 2015, "kewenangan pemerintah bersifat nasional aceh"),
    ("qanun jinayat", QANUN, "6", 2014, "hukum jinayat"),
    ("qanun hukum jinayat", QANUN, "6", 2014, "hukum jinayat"),
    ("qanun dana abadi pendidikan", QANUN, "6", 2025, "dana abadi pendidikan"),
    ("qanun rpjpa", QANUN, "8", 2025, "rencana pembangunan jangka panjang aceh"),
    ("qanun kebudayaan aceh", QANUN, "5", 2025, "pemajuan kebudayaan aceh"),
    ("pergub perjalanan dinas", PERGUB, "3", 2025, "perjalanan dinas"),
    ("pergub perjalanan dinas 2025", PERGUB, "3", 2025, "perjalanan dinas"),
    ("pergub kurikulum dayah", PERGUB, "15", 2025, "kurikulum dayah"),
]

ABBREVIATIONS = {
    "apba": "anggaran pendapatan belanja aceh",
    "apbk": "anggaran pendapatan belanja kabupaten kota",
    "apbd": "anggaran pendapatan belanja daerah",
    "apbn": "anggaran pendapatan belanja negara",
    "dbh": "dana bagi hasil",
    "migas": "minyak gas bumi",
    "dau": "dana alokasi umum",
    "dak": "dana alokasi khusus",
    "otsus": "otonomi khusus",
    "pad": "pendapatan asli daerah",
    "ump": "upah minimum provinsi",
    "umsp": "upah minimum sektoral provinsi",
    "skpa": "satuan kerja perangkat aceh",
    "skpk": "satuan kerja perangkat kabupaten kota",
    "ingub": "instruksi gubernur",
    "raqan": "rancangan qanun",
    "pergub": "peraturan gubernur",
    "kepgub": "keputusan gubernur",
    "dpra": "dewan perwakilan rakyat aceh",
    "dprk": "dewan perwakilan rakyat kabupaten kota",
    "pns": "pegawai negeri sipil",
    "asn": "aparatur sipil negara",
    "pppk": "pegawai pemerintah perjanjian kerja",
    "mpu": "majelis permusyawaratan ulama",
    "kip": "komisi independen pemilihan",
    "bpma": "badan pengelola minyak gas bumi aceh",
    "rpjpa": "rencana pembangunan jangka panjang aceh",
    "rkpa": "rencana kerja pemerintah aceh",
    "pkb": "pajak kendaraan bermotor",
    "bbnkb": "bea balik nama kendaraan bermotor",
    "ckg": "cek kesehatan gratis",
    "sekda": "sekretaris daerah",
    "pemda": "pemerintah daerah",
    "pemkab": "pemerintah kabupaten",
    "pilkada": "pemilihan kepala daerah",
    "parlok": "partai politik lokal",
    "thr": "tunjangan hari raya",
    "bumd": "badan usaha milik daerah",
    "bumn": "badan usaha milik negara",
    "pnbp": "penerimaan negara bukan pajak",
    "kkr": "komisi kebenaran rekonsiliasi",
    "ham": "hak asasi manusia",
    "lkpj": "laporan keterangan pertanggungjawaban",
    "kpu": "komisi pemilihan umum",
    "bpk": "badan pemeriksa keuangan",
}

COLLOQUIAL = {
    "yg": "yang", "gimana": "bagaimana", "gmn": "bagaimana", "nggak": "tidak", "ngga": "tidak",
    "gak": "tidak", "ga": "tidak", "enggak": "tidak", "engga": "tidak", "tdk": "tidak", "kalo": "kalau",
    "klo": "kalau", "bikin": "membuat", "dapet": "dapat", "dpt": "dapat", "emang": "memang",
    "brp": "berapa", "udah": "sudah", "udh": "sudah", "sdh": "sudah", "blm": "belum", "belom": "belum",
    "dgn": "dengan", "utk": "untuk", "krn": "karena", "tsb": "tersebut", "aja": "saja", "gitu": "begitu",
    "ngatur": "mengatur", "ngurus": "mengurus", "nyari": "mencari", "org": "orang", "kyk": "seperti",
    "kayak": "seperti", "jd": "jadi", "pake": "pakai", "gede": "besar", "duit": "uang", "dikasih": "diberikan",
    "nanya": "bertanya", "ortu": "orang tua",
    "dibikin": "dibuat", "nyalon": "mencalonkan",
}

ENGLISH = {
    "regional government": "pemerintahan daerah", "local government": "pemerintahan daerah",
    "governor": "gubernur", "deputy governor": "wakil gubernur", "regent": "bupati", "mayor": "walikota",
    "village": "desa gampong", "villages": "desa gampong", "village head": "kepala desa keuchik",
    "civil servant": "pegawai negeri sipil", "civil servants": "pegawai negeri sipil",
    "discipline": "disiplin", "penalty": "sanksi hukuman", "penalties": "sanksi hukuman",
    "sanction": "sanksi", "sanctions": "sanksi", "tax": "pajak", "taxes": "pajak",
    "motor vehicle": "kendaraan bermotor", "vehicle": "kendaraan", "minimum wage": "upah minimum",
    "wage": "upah", "wages": "upah", "special autonomy": "otonomi khusus", "fund": "dana", "funds": "dana",
    "revenue sharing": "bagi hasil", "oil and gas": "minyak gas bumi", "oil": "minyak", "gas": "gas bumi",
    "budget": "anggaran", "election": "pemilihan", "elections": "pemilihan",
    "political party": "partai politik", "political parties": "partai politik", "local": "lokal",
    "islamic law": "syariat islam", "sharia": "syariat", "sharia court": "mahkamah syar'iyah",
    "education": "pendidikan", "endowment fund": "dana abadi", "endowment": "dana abadi",
    "scholarship": "beasiswa", "orphan": "anak yatim", "orphans": "anak yatim",
    "women": "perempuan", "woman": "perempuan", "rights": "hak", "right": "hak", "culture": "kebudayaan",
    "disaster": "bencana", "emergency": "darurat", "health": "kesehatan", "free": "gratis",
    "check-up": "cek", "checkup": "cek", "school": "sekolah", "schools": "sekolah",
    "public information": "informasi publik", "personal data": "data pribadi",
    "protection": "pelindungan perlindungan", "waqf": "wakaf", "official travel": "perjalanan dinas",
    "business trip": "perjalanan dinas", "travel": "perjalanan", "allowance": "tunjangan",
    "salary": "gaji", "holiday allowance": "tunjangan hari raya", "thirteenth": "ketiga belas",
    "surface water": "air permukaan", "water": "air", "spatial planning": "penataan ruang",
    "environment": "lingkungan hidup", "nuclear": "nuklir", "radiation": "radiasi",
    "radioactive": "radioaktif", "waste": "limbah", "capital": "ibu kota", "district": "kabupaten",
    "regency": "kabupaten", "subdistrict": "kecamatan", "establishment": "pembentukan",
    "term of office": "masa jabatan", "years": "tahun", "year": "tahun", "head": "kepala",
    "deputy": "wakil", "secretary": "sekretaris", "regional secretary": "sekretaris daerah",
    "council": "dewan", "parliament": "dewan perwakilan rakyat", "authority": "kewenangan",
    "authorities": "kewenangan", "free trade zone": "kawasan perdagangan bebas", "port": "pelabuhan",
    "worker": "pekerja", "workers": "pekerja", "employment": "ketenagakerjaan", "leave": "cuti",
    "severance": "pesangon", "working hours": "waktu kerja", "homeless": "gelandangan",
    "beggars": "pengemis", "green growth": "pertumbuhan hijau", "sanitation": "sanitasi",
    "curriculum": "kurikulum", "state capital": "penyertaan modal negara", "public service": "pelayanan publik",
    "public services": "pelayanan publik", "complaint": "pengaduan", "complaints": "pengaduan",
    "information": "informasi", "electronic": "elektronik", "gambling": "maisir",
    "alcohol": "khamar", "punishment": "uqubat hukuman", "caning": "cambuk", "adultery": "zina",
    "customary": "adat", "institution": "lembaga", "ulama council": "majelis permusyawaratan ulama",
    "land": "pertanahan", "forest": "hutan kehutanan", "plantation": "perkebunan", "company": "perusahaan",
    "natural resources": "sumber daya alam", "management": "pengelolaan", "permit": "izin perizinan",
    "license": "izin perizinan", "licensing": "perizinan", "requirements": "persyaratan",
    "requirement": "persyaratan", "appointment": "pengangkatan", "appointed": "diangkat",
    "dismissal": "pemberhentian", "dismissed": "diberhentikan", "audit": "pemeriksaan",
    "state finance": "keuangan negara", "treasury": "perbendaharaan", "cooperation": "kerja sama",
    "community participation": "partisipasi masyarakat", "development": "pembangunan",
    "long-term": "jangka panjang", "plan": "rencana", "bureaucracy": "birokrasi",
    "heavy equipment": "alat berat", "exemption": "pembebasan", "competency": "kompetensi",
    "distribution center": "pusat distribusi", "flag": "bendera", "human rights": "hak asasi manusia",
    "reparation": "reparasi", "victims": "korban", "court": "pengadilan mahkamah", "law": "undang-undang",
    "regulation": "peraturan", "government regulation": "peraturan pemerintah",
    "governor regulation": "peraturan gubernur", "article": "pasal", "register": "pendaftaran", "registration": "pendaftaran", "member": "anggota", "members": "anggota",
    "candidate": "calon", "candidates": "calon", "age": "umur usia", "requirements to become": "syarat",
    "poverty": "kemiskinan", "poor": "miskin", "children": "anak", "child": "anak", "violence": "kekerasan",
    "marriage": "perkawinan", "family": "keluarga", "religious": "agama", "religion": "agama",
    "mosque": "masjid", "tourism": "pariwisata", "investment": "penanaman modal investasi",
    "population": "penduduk", "statistics": "statistik", "boundary": "batas",
    "boundaries": "batas", "mining": "pertambangan", "fisheries": "perikanan", "sea": "laut",
    "defined": "adalah", "definition": "pengertian", "meaning": "pengertian", "duties": "tugas",
    "duty": "tugas", "functions": "fungsi", "powers": "wewenang", "obligations": "kewajiban",
    "obligation": "kewajiban", "prohibited": "dilarang", "prohibition": "larangan",
}


def load(apps, schema_editor):
    entry = apps.get_model("retrieval", "GlossaryEntry")
    rows = [
        entry(phrase=phrase, kind="nickname", instrument_type=kind, number=number, year=year, expansion=words)
        for phrase, kind, number, year, words in NICKNAMES
    ]
    rows += [entry(phrase=p, kind="abbreviation", expansion=e) for p, e in ABBREVIATIONS.items()]
    rows += [entry(phrase=p, kind="colloquial", expansion=e) for p, e in COLLOQUIAL.items()]
    rows += [entry(phrase=p, kind="english", expansion=e) for p, e in ENGLISH.items()]
    entry.objects.bulk_create(rows, ignore_conflicts=True)


def unload(apps, schema_editor):
    apps.get_model("retrieval", "GlossaryEntry").objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [("retrieval", "0005_glossary")]
    operations = [migrations.RunPython(load, unload)]
