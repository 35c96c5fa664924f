import type { Kysely } from 'kysely';

/**
 * The first FAQ: real answers about this portal's processes, in en, es, zh and
 * bn. Frozen content: admins change it afterwards through `api/FaqCategory`. A category already
 * there (same slug) is left as the admins made it.
 */
type Text = { en: string; es: string; zh: string; bn: string };
interface Seed {
  slug: string;
  name: Text;
  questions: { question: Text; answer: Text }[];
}

const FAQ: Seed[] = [
  {
    slug: 'profile',
    name: { en: 'Your household profile', es: 'El perfil de su hogar', zh: '您的家庭资料', bn: 'আপনার পরিবারের প্রোফাইল' },
    questions: [
      {
        question: {
          en: 'What goes in my household profile?',
          es: '¿Qué incluye el perfil de mi hogar?',
          zh: '我的家庭资料包括哪些内容？',
          bn: 'আমার পরিবারের প্রোফাইলে কী কী থাকে?',
        },
        answer: {
          en: 'Open Profile from the menu. Add every person who lives with you as a household member, then enter each person’s income and assets, your living and mailing address, and your housing choices. The same profile is used for every application and for recertification, so you fill it in once and keep it up to date.',
          es: 'Abra Perfil en el menú. Agregue como miembro del hogar a cada persona que vive con usted y luego ingrese los ingresos y bienes de cada persona, su dirección de residencia y de correo, y sus preferencias de vivienda. El mismo perfil se usa en todas las solicitudes y en la recertificación, así que lo completa una vez y lo mantiene al día.',
          zh: '从菜单打开“资料”。把与您同住的每个人添加为家庭成员，然后填写每个人的收入和资产、您的居住地址和邮寄地址，以及您的住房选择。每一份申请和重新认证都使用同一份资料，所以您只需填写一次并保持更新。',
          bn: 'মেনু থেকে প্রোফাইল খুলুন। আপনার সাথে যারা থাকেন তাদের প্রত্যেককে পরিবারের সদস্য হিসেবে যোগ করুন, তারপর প্রত্যেকের আয় ও সম্পদ, আপনার বসবাসের ও ডাকের ঠিকানা এবং আপনার আবাসন পছন্দ লিখুন। প্রতিটি আবেদন ও পুনঃপ্রত্যয়নে একই প্রোফাইল ব্যবহার হয়, তাই একবার পূরণ করে হালনাগাদ রাখুন।',
        },
      },
      {
        question: {
          en: 'Why can I no longer edit my profile?',
          es: '¿Por qué ya no puedo editar mi perfil?',
          zh: '为什么我不能再编辑我的资料？',
          bn: 'আমি কেন আর আমার প্রোফাইল সম্পাদনা করতে পারছি না?',
        },
        answer: {
          en: 'Your profile is locked when you confirm it for recertification or submit it to an application, so that the manager reviews exactly what you sent. It is unlocked again if the manager returns your recertification for changes. If something has changed in the meantime, open a support ticket or send a message to your managing office.',
          es: 'Su perfil se bloquea cuando lo confirma para la recertificación o lo envía a una solicitud, para que el administrador revise exactamente lo que usted envió. Se desbloquea de nuevo si el administrador le devuelve la recertificación para hacer cambios. Si algo cambió mientras tanto, abra un ticket de soporte o envíe un mensaje a su oficina de administración.',
          zh: '当您为重新认证确认资料或把资料提交给申请时，资料会被锁定，以便管理员审查的正是您提交的内容。如果管理员把重新认证退回修改，资料会再次解锁。如果这期间情况有变化，请提交支持工单或给您的管理处发消息。',
          bn: 'পুনঃপ্রত্যয়নের জন্য নিশ্চিত করলে বা কোনো আবেদনে জমা দিলে আপনার প্রোফাইল লক হয়ে যায়, যাতে ম্যানেজার ঠিক আপনি যা পাঠিয়েছেন তাই পর্যালোচনা করেন। ম্যানেজার পরিবর্তনের জন্য পুনঃপ্রত্যয়ন ফেরত পাঠালে এটি আবার খুলে যায়। এর মধ্যে কিছু বদলে গেলে একটি সাপোর্ট টিকিট খুলুন বা আপনার ব্যবস্থাপনা অফিসে বার্তা পাঠান।',
        },
      },
    ],
  },
  {
    slug: 'documents',
    name: { en: 'Documents', es: 'Documentos', zh: '文件', bn: 'নথিপত্র' },
    questions: [
      {
        question: {
          en: 'Which files can I upload?',
          es: '¿Qué archivos puedo subir?',
          zh: '我可以上传哪些文件？',
          bn: 'আমি কোন ফাইলগুলো আপলোড করতে পারি?',
        },
        answer: {
          en: 'PDF, JPEG, PNG, HEIC or TIFF files of up to 10 MB each. A clear photo taken with your phone is fine. For pay stubs upload the last 6 consecutive ones; bank statements up to 6 files; a retirement statement as 1 file. Everything you upload is kept encrypted and appears in My Documents.',
          es: 'Archivos PDF, JPEG, PNG, HEIC o TIFF de hasta 10 MB cada uno. Una foto clara tomada con su teléfono sirve. De los talones de pago suba los últimos 6 consecutivos; estados de cuenta bancarios hasta 6 archivos; un estado de jubilación en 1 archivo. Todo lo que sube se guarda cifrado y aparece en Mis documentos.',
          zh: '每个文件最大 10 MB，格式为 PDF、JPEG、PNG、HEIC 或 TIFF。用手机拍的清晰照片也可以。工资单请上传最近连续的 6 份；银行对账单最多 6 个文件；退休金对账单 1 个文件。您上传的所有文件都会加密保存，并显示在“我的文件”中。',
          bn: 'প্রতিটি সর্বোচ্চ ১০ MB-এর PDF, JPEG, PNG, HEIC বা TIFF ফাইল। ফোনে তোলা পরিষ্কার ছবিও চলবে। বেতনের স্লিপের জন্য সর্বশেষ পরপর ৬টি আপলোড করুন; ব্যাংক স্টেটমেন্ট সর্বোচ্চ ৬টি ফাইল; অবসর স্টেটমেন্ট ১টি ফাইল। আপনি যা আপলোড করেন সব এনক্রিপ্ট করে রাখা হয় এবং আমার নথিপত্রে দেখা যায়।',
        },
      },
      {
        question: {
          en: 'The manager rejected one of my documents. What do I do?',
          es: 'El administrador rechazó uno de mis documentos. ¿Qué hago?',
          zh: '管理员拒绝了我的一份文件，我该怎么办？',
          bn: 'ম্যানেজার আমার একটি নথি প্রত্যাখ্যান করেছেন। আমি কী করব?',
        },
        answer: {
          en: 'Open My Documents: the rejected document shows the manager’s reason. Upload a new file in its place, or give a reason if you cannot provide it. If the manager asked for additional documents on an application, you have 14 days to send them from the application page.',
          es: 'Abra Mis documentos: el documento rechazado muestra el motivo del administrador. Suba un archivo nuevo en su lugar o indique un motivo si no puede presentarlo. Si el administrador pidió documentos adicionales en una solicitud, tiene 14 días para enviarlos desde la página de la solicitud.',
          zh: '打开“我的文件”：被拒绝的文件会显示管理员的理由。请上传新文件替换它，如果无法提供，请说明原因。如果管理员在申请中要求补充文件，您有 14 天时间从申请页面提交。',
          bn: 'আমার নথিপত্র খুলুন: প্রত্যাখ্যাত নথিতে ম্যানেজারের কারণ দেখা যায়। এর জায়গায় নতুন ফাইল আপলোড করুন, অথবা দিতে না পারলে কারণ লিখুন। কোনো আবেদনে ম্যানেজার অতিরিক্ত নথি চাইলে আবেদনের পাতা থেকে পাঠাতে আপনার হাতে ১৪ দিন আছে।',
        },
      },
    ],
  },
  {
    slug: 'lottery-and-rank',
    name: { en: 'Lotteries and your rank', es: 'Sorteos y su posición', zh: '抽签与您的排名', bn: 'লটারি ও আপনার ক্রম' },
    questions: [
      {
        question: {
          en: 'How is my lottery rank decided?',
          es: '¿Cómo se decide mi posición en el sorteo?',
          zh: '我的抽签排名是如何决定的？',
          bn: 'আমার লটারির ক্রম কীভাবে ঠিক হয়?',
        },
        answer: {
          en: 'After the application period ends, every eligible application is drawn in a random order. Preference groups (for example residents of the community district or people needing an accessible unit) are invited first in their share of units. Your application page shows your log number and rank, and the published results list ranks by log number, without names.',
          es: 'Cuando termina el plazo de solicitud, todas las solicitudes elegibles se sortean en orden aleatorio. Los grupos de preferencia (por ejemplo, residentes del distrito comunitario o personas que necesitan una unidad accesible) se invitan primero en su parte de las unidades. La página de su solicitud muestra su número de registro y su posición, y los resultados publicados listan las posiciones por número de registro, sin nombres.',
          zh: '申请期结束后，所有符合条件的申请会按随机顺序抽签。优先组（例如社区区的居民或需要无障碍单元的人）会在其所占单元份额内优先受邀。您的申请页面显示您的登记号和排名，公布的结果按登记号列出排名，不显示姓名。',
          bn: 'আবেদনের সময় শেষ হলে সব যোগ্য আবেদন এলোমেলো ক্রমে টানা হয়। অগ্রাধিকার গোষ্ঠী (যেমন কমিউনিটি জেলার বাসিন্দা বা প্রবেশযোগ্য ইউনিট প্রয়োজন এমন মানুষ) তাদের ইউনিটের অংশে আগে আমন্ত্রণ পান। আপনার আবেদনের পাতায় আপনার লগ নম্বর ও ক্রম দেখা যায়, আর প্রকাশিত ফলাফলে নাম ছাড়া লগ নম্বর অনুযায়ী ক্রম থাকে।',
        },
      },
      {
        question: {
          en: 'Can I apply more than once to the same lottery?',
          es: '¿Puedo presentar más de una solicitud al mismo sorteo?',
          zh: '我可以对同一个抽签申请多次吗？',
          bn: 'আমি কি একই লটারিতে একাধিকবার আবেদন করতে পারি?',
        },
        answer: {
          en: 'No. Each household may apply once per lottery. Sending both an online and a paper application may get both disqualified. Your profile must be complete before you apply.',
          es: 'No. Cada hogar puede presentar una sola solicitud por sorteo. Enviar una solicitud en línea y otra en papel puede hacer que ambas sean descalificadas. Su perfil debe estar completo antes de solicitar.',
          zh: '不可以。每个家庭每次抽签只能申请一次。同时提交网上申请和纸质申请可能导致两份申请都被取消资格。申请前您的资料必须完整。',
          bn: 'না। প্রতিটি পরিবার প্রতি লটারিতে একবারই আবেদন করতে পারে। অনলাইন ও কাগজের দুটো আবেদন পাঠালে দুটোই বাতিল হতে পারে। আবেদনের আগে আপনার প্রোফাইল সম্পূর্ণ থাকতে হবে।',
        },
      },
    ],
  },
  {
    slug: 'recertification',
    name: { en: 'Recertification and deadlines', es: 'Recertificación y plazos', zh: '重新认证与截止日期', bn: 'পুনঃপ্রত্যয়ন ও সময়সীমা' },
    questions: [
      {
        question: {
          en: 'When is my recertification due?',
          es: '¿Cuándo vence mi recertificación?',
          zh: '我的重新认证什么时候到期？',
          bn: 'আমার পুনঃপ্রত্যয়ন কবে জমা দিতে হবে?',
        },
        answer: {
          en: 'The annual recertification opens 120 days before your lease anniversary, and the deadline is the anniversary. You are reminded 120, 90, 60 and 30 days before the deadline, in your language. The Recertification page shows how many days remain and what to do next: confirm or update your profile, upload the documents, then sign.',
          es: 'La recertificación anual se abre 120 días antes del aniversario de su contrato, y el plazo vence en el aniversario. Le recordamos 120, 90, 60 y 30 días antes del plazo, en su idioma. La página Recertificación muestra cuántos días quedan y el siguiente paso: confirmar o actualizar su perfil, subir los documentos y luego firmar.',
          zh: '年度重新认证在您的租约周年日前 120 天开始，截止日期就是周年日。我们会在截止日期前 120、90、60 和 30 天用您的语言提醒您。“重新认证”页面显示剩余天数和下一步：确认或更新资料，上传文件，然后签名。',
          bn: 'বার্ষিক পুনঃপ্রত্যয়ন আপনার লিজের বর্ষপূর্তির ১২০ দিন আগে শুরু হয়, আর বর্ষপূর্তির দিনই শেষ সময়। শেষ সময়ের ১২০, ৯০, ৬০ ও ৩০ দিন আগে আপনার ভাষায় মনে করিয়ে দেওয়া হয়। পুনঃপ্রত্যয়ন পাতায় কত দিন বাকি এবং পরের ধাপ দেখা যায়: প্রোফাইল নিশ্চিত বা হালনাগাদ করুন, নথি আপলোড করুন, তারপর স্বাক্ষর করুন।',
        },
      },
      {
        question: {
          en: 'I missed the recertification deadline. What now?',
          es: 'Se me pasó el plazo de recertificación. ¿Y ahora?',
          zh: '我错过了重新认证的截止日期，现在怎么办？',
          bn: 'আমি পুনঃপ্রত্যয়নের সময়সীমা পার করে ফেলেছি। এখন কী করব?',
        },
        answer: {
          en: 'Contact your managing agent as soon as possible: after the deadline you can no longer finish the steps yourself, but the manager can still complete your recertification. You can open a support ticket from the Recertification page so the manager sees your case with it.',
          es: 'Comuníquese con su agente administrador lo antes posible: después del plazo ya no puede terminar los pasos usted mismo, pero el administrador todavía puede completar su recertificación. Puede abrir un ticket de soporte desde la página Recertificación para que el administrador vea su caso junto con él.',
          zh: '请尽快联系您的管理代理：截止日期过后您无法自己完成各个步骤，但管理员仍可以完成您的重新认证。您可以在“重新认证”页面提交支持工单，这样管理员会同时看到您的个案。',
          bn: 'যত দ্রুত সম্ভব আপনার ব্যবস্থাপনা এজেন্টের সাথে যোগাযোগ করুন: সময়সীমার পরে আপনি নিজে ধাপগুলো শেষ করতে পারবেন না, তবে ম্যানেজার এখনও আপনার পুনঃপ্রত্যয়ন সম্পন্ন করতে পারেন। পুনঃপ্রত্যয়ন পাতা থেকে সাপোর্ট টিকিট খুললে ম্যানেজার এর সাথে আপনার কেসও দেখতে পাবেন।',
        },
      },
    ],
  },
  {
    slug: 'appeals',
    name: { en: 'Appeals', es: 'Apelaciones', zh: '申诉', bn: 'আপিল' },
    questions: [
      {
        question: {
          en: 'My application was rejected. Can I appeal?',
          es: 'Mi solicitud fue rechazada. ¿Puedo apelar?',
          zh: '我的申请被拒绝了，我可以申诉吗？',
          bn: 'আমার আবেদন প্রত্যাখ্যাত হয়েছে। আমি কি আপিল করতে পারি?',
        },
        answer: {
          en: 'Yes. Open the application in My Applications and choose Appeal. Explain why the decision should change and add any documents that support it. Appeals are usually open for 14 days after the decision; once the period has passed the button is no longer offered. Your profile must have been submitted to the application.',
          es: 'Sí. Abra la solicitud en Mis solicitudes y elija Apelar. Explique por qué debería cambiar la decisión y agregue los documentos que la respalden. Normalmente puede apelar durante 14 días después de la decisión; pasado ese plazo el botón ya no aparece. Su perfil debe haberse enviado a la solicitud.',
          zh: '可以。在“我的申请”中打开该申请并选择“申诉”。说明决定为何应当改变，并附上支持的文件。申诉通常在决定后 14 天内可以提出；过了期限按钮就不再显示。您的资料必须已提交到该申请。',
          bn: 'হ্যাঁ। আমার আবেদনসমূহে আবেদনটি খুলে আপিল বেছে নিন। সিদ্ধান্ত কেন বদলানো উচিত তা ব্যাখ্যা করুন এবং সমর্থনকারী নথি যোগ করুন। সাধারণত সিদ্ধান্তের পর ১৪ দিন আপিল করা যায়; সময় পেরিয়ে গেলে বোতামটি আর দেখা যায় না। আপনার প্রোফাইল আবেদনে জমা দেওয়া থাকতে হবে।',
        },
      },
      {
        question: {
          en: 'How long does an appeal decision take?',
          es: '¿Cuánto tarda la decisión de una apelación?',
          zh: '申诉决定需要多长时间？',
          bn: 'আপিলের সিদ্ধান্ত পেতে কত সময় লাগে?',
        },
        answer: {
          en: 'The manager is asked to decide within 5 business days; if not, the appeal is escalated. You are told the decision by email or text in your language. If the appeal is granted, your application goes back to the step where it was rejected.',
          es: 'Se pide al administrador que decida en 5 días hábiles; si no, la apelación se escala. Se le comunica la decisión por correo electrónico o mensaje de texto en su idioma. Si se acepta la apelación, su solicitud vuelve al paso en que fue rechazada.',
          zh: '管理员需在 5 个工作日内作出决定，否则申诉会被上报。我们会用您的语言通过电子邮件或短信告知您决定。如果申诉获准，您的申请会回到被拒绝时的那一步。',
          bn: 'ম্যানেজারকে ৫ কার্যদিবসের মধ্যে সিদ্ধান্ত নিতে বলা হয়; না নিলে আপিলটি ঊর্ধ্বতনের কাছে যায়। সিদ্ধান্ত আপনার ভাষায় ইমেল বা টেক্সটে জানানো হয়। আপিল মঞ্জুর হলে আপনার আবেদন যে ধাপে প্রত্যাখ্যাত হয়েছিল সেখানে ফিরে যায়।',
        },
      },
    ],
  },
  {
    slug: 'relocation',
    name: { en: 'Temporary relocation', es: 'Reubicación temporal', zh: '临时搬迁', bn: 'অস্থায়ী স্থানান্তর' },
    questions: [
      {
        question: {
          en: 'How does a temporary relocation work?',
          es: '¿Cómo funciona una reubicación temporal?',
          zh: '临时搬迁是怎样进行的？',
          bn: 'অস্থায়ী স্থানান্তর কীভাবে কাজ করে?',
        },
        answer: {
          en: 'Your manager starts the relocation, for example during repairs. Submit your profile from the Relocation page, then accept or decline the temporary unit you are offered (this choice cannot be undone). After accepting, book a moving slot. A temporary relocation lasts up to 6 months.',
          es: 'Su administrador inicia la reubicación, por ejemplo durante reparaciones. Envíe su perfil desde la página Reubicación y luego acepte o rechace la unidad temporal que se le ofrece (esta elección no se puede deshacer). Después de aceptar, reserve un horario para la mudanza. Una reubicación temporal dura hasta 6 meses.',
          zh: '由您的管理员发起搬迁，例如在维修期间。请在“搬迁”页面提交资料，然后接受或拒绝为您提供的临时单元（此选择无法撤销）。接受后，预约搬家时间。临时搬迁最长 6 个月。',
          bn: 'আপনার ম্যানেজার স্থানান্তর শুরু করেন, যেমন মেরামতের সময়। স্থানান্তর পাতা থেকে আপনার প্রোফাইল জমা দিন, তারপর প্রস্তাবিত অস্থায়ী ইউনিট গ্রহণ বা প্রত্যাখ্যান করুন (এই সিদ্ধান্ত ফেরানো যায় না)। গ্রহণের পর স্থানান্তরের সময় বুক করুন। অস্থায়ী স্থানান্তর সর্বোচ্চ ৬ মাস চলে।',
        },
      },
      {
        question: {
          en: 'What happens when my 6 months are almost over?',
          es: '¿Qué pasa cuando mis 6 meses están por terminar?',
          zh: '我的 6 个月快到期时会怎样？',
          bn: 'আমার ৬ মাস প্রায় শেষ হলে কী হয়?',
        },
        answer: {
          en: 'You are reminded 30, 14 and 7 days before the end. If you have not returned home when the 6 months are reached, your manager is alerted and will contact you. Send a message to your managing office if you need to talk about your return date.',
          es: 'Le recordamos 30, 14 y 7 días antes del final. Si no ha regresado a su hogar al cumplirse los 6 meses, se avisa a su administrador, que se pondrá en contacto con usted. Envíe un mensaje a su oficina de administración si necesita hablar sobre la fecha de regreso.',
          zh: '我们会在结束前 30、14 和 7 天提醒您。如果满 6 个月时您还没有搬回，管理员会收到提醒并联系您。如需讨论搬回日期，请给您的管理处发消息。',
          bn: 'শেষ হওয়ার ৩০, ১৪ ও ৭ দিন আগে আপনাকে মনে করিয়ে দেওয়া হয়। ৬ মাস পূর্ণ হলেও বাড়ি না ফিরলে আপনার ম্যানেজারকে জানানো হয় এবং তিনি আপনার সাথে যোগাযোগ করবেন। ফেরার তারিখ নিয়ে কথা বলতে চাইলে আপনার ব্যবস্থাপনা অফিসে বার্তা পাঠান।',
        },
      },
    ],
  },
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const [index, category] of FAQ.entries()) {
    const inserted = await db
      .insertInto('faq_categories')
      .values({ slug: category.slug, position: index, name: JSON.stringify(category.name) })
      .onConflict((oc) => oc.column('slug').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!inserted) continue;
    await db
      .insertInto('faq_questions')
      .values(category.questions.map((q, position) => ({ category_id: inserted.id, position, question: JSON.stringify(q.question), answer: JSON.stringify(q.answer) })))
      .execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.deleteFrom('faq_categories').where('slug', 'in', FAQ.map((c) => c.slug)).execute();
}
