// The words the demo data is made of (services/demo-data.ts): made-up people and companies. Every
// email address is under the reserved `.example` domain (RFC 2606) and every phone number in the
// range Ofcom keeps for drama (+44 20 7946 0xxx), so no demo contact reaches anyone real.

export const FIRST_NAMES = [
  "Amara", "Ben", "Chiara", "Daniel", "Elif", "Farid", "Grace", "Hiroshi", "Ines", "Jonas", "Kavya", "Lars",
  "Maya", "Nikolai", "Olivia", "Pablo", "Quentin", "Rosa", "Samir", "Tanvi", "Ugo", "Valentina", "Wei", "Ximena",
  "Yusuf", "Zofia", "Aidan", "Beatriz", "Chen", "Dara", "Emeka", "Freya", "Gustavo", "Hana", "Ivan", "Julia",
  "Kofi", "Lena", "Mateo", "Noor",
];

export const LAST_NAMES = [
  "Adeyemi", "Bergstrom", "Costa", "Dubois", "Eriksen", "Fischer", "Garcia", "Haddad", "Ivanova", "Jensen",
  "Kowalski", "Laurent", "Moreau", "Nakamura", "Okafor", "Petrov", "Quinn", "Rossi", "Schmidt", "Tanaka",
  "Umarov", "Varga", "Walsh", "Xu", "Yilmaz", "Zimmermann", "Andersson", "Bianchi", "Castillo", "Demir",
];

/** Client and prospect companies, each with the domain its people's addresses use. */
export const COMPANIES = [
  "Northwind Logistics", "Bluefin Analytics", "Copperleaf Health", "Driftwood Studios", "Evergreen Foods",
  "Fjord Robotics", "Granite Insurance", "Harbor Fintech", "Ironbark Energy", "Juniper Retail", "Kestrel Aviation",
  "Lumen Labs", "Meridian Telecom", "Nimbus Cloudworks", "Orchard Biotech", "Pinecrest Hotels", "Quarry Materials",
  "Redwood Legal", "Saltmarsh Media", "Tidewater Shipping",
].map((name) => ({ name, domain: `${name.toLowerCase().replace(/[^a-z]+/g, "")}.example` }));

/** Where candidates work now (their dossier's `company`). */
export const EMPLOYERS = ["Acme Systems", "Globex", "Initech", "Umbrella Data", "Hooli", "Vandelay Industries", "Stark Digital", "Wayne Services"];

export const CITIES = ["Amsterdam", "Berlin", "Lisbon", "London", "Madrid", "Milan", "Paris", "Stockholm", "Vienna", "Warsaw", "Dublin", "Remote"];

/** The openings candidates apply for (their dossier's `role`). */
export const OPENINGS = [
  "Senior Backend Engineer", "Frontend Engineer", "Data Analyst", "Product Designer", "Engineering Manager",
  "DevOps Engineer", "Account Executive", "Customer Success Manager", "QA Engineer", "Product Manager",
];

/** Candidates' current titles. */
export const TITLES = ["Software Engineer", "Developer", "Analyst", "Designer", "Team Lead", "Consultant", "Specialist", "Engineer"];

/** Titles of the people at client and prospect companies. */
export const BUSINESS_TITLES = [
  "Head of Engineering", "CTO", "VP Sales", "Procurement Lead", "Head of People", "COO", "Operations Manager",
  "Talent Acquisition Lead", "CFO", "IT Director",
];

/** What a sales dossier is about: its name is "<company>: <deal>". */
export const DEALS = [
  "annual licence", "pilot project", "team expansion", "platform migration", "support contract", "50 seats",
  "renewal", "onboarding package", "data integration", "enterprise plan",
];

export const SOURCES = [
  "Applied through the careers page.", "Referred by a former colleague.", "Sourced on a job board.",
  "Met at a meetup; asked to be kept in mind.", "Came back from the talent pool.",
];

/** Notes a recruiter or a seller writes, by the kind of dossier. */
export const NOTES = {
  candidate: [
    "Phone screen done: clear communicator, motivated by the product.",
    "Strong take-home exercise; tests were thorough.",
    "Salary expectation within the band. Notice period one month.",
    "Interview panel: good system design, a bit light on testing strategy.",
    "References checked: two positive, one pending.",
    "Asked about remote days; said two days in the office is fine.",
    "Rescheduled the interview at the candidate's request.",
    "Hiring manager wants a second conversation about team lead experience.",
  ],
  sales: [
    "Discovery call: pain is manual reporting across three teams.",
    "Sent the proposal; they asked for a quarterly payment option.",
    "Champion is enthusiastic, procurement needs a security questionnaire.",
    "Demo went well; the CFO joined for the last 20 minutes.",
    "They compare us with two other vendors; decision expected next month.",
    "Legal returned the contract with minor comments.",
    "Budget approved for this quarter.",
    "Follow-up booked; they want to start with a smaller team.",
  ],
};
